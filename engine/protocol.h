#pragma once
#include <stdio.h>
/* The protocol loop on in/out; returns the exit code. */
int protocol_loop(FILE *in, FILE *out);
/* `bench [depth]`: search the benchmark positions; returns the exit code. */
int protocol_bench_command(const char *depth, FILE *out);
