# SPDX-License-Identifier: GPL-3.0-or-later
# tuong-train, the NNUE trainer (docs/nnue.md). Its modules are a library so
# tests/test_nnue_train.c links them; train_main.c is only the command line.
# -fno-math-errno lets the compiler vectorise the Adam step's sqrtf.
set(TUONG_TRAIN_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(tuong_nnue_train STATIC
  ${TUONG_TRAIN_DIR}/train_data.c ${TUONG_TRAIN_DIR}/train_net.c ${TUONG_TRAIN_DIR}/train_quant.c
  ${TUONG_TRAIN_DIR}/train_loop.c ${TUONG_TRAIN_DIR}/train_ckpt.c ${TUONG_TRAIN_DIR}/train_synth.c
  ${TUONG_TRAIN_DIR}/train_init.c ${TUONG_TRAIN_DIR}/train_batch.c)
target_include_directories(tuong_nnue_train PUBLIC ${TUONG_TRAIN_DIR})
target_link_libraries(tuong_nnue_train PUBLIC tuong_core m Threads::Threads)
target_compile_options(tuong_nnue_train PRIVATE -fno-math-errno)

add_executable(tuong-train ${TUONG_TRAIN_DIR}/train_main.c)
target_link_libraries(tuong-train PRIVATE tuong_nnue_train)
set_target_properties(tuong-train PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
