// SPDX-License-Identifier: GPL-3.0-or-later
/* The protocol dispatcher: reader thread, command queue, and the
 * application of each parsed command to the engine. */
#include "protocol.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "fen.h"
#include "movegen.h"
#include "nnue/nnue.h"
#include "notation.h"
#include "perft.h"
#include "protocol_board.h"
#include "protocol_book.h"
#include "protocol_format.h"
#include "protocol_options.h"
#include "protocol_output.h"
#include "protocol_parse.h"
#include "protocol_reader.h"
#include "search.h"
#include "version.h"

/* One line waiting to be dispatched or run. */
typedef struct QueuedLine {
    struct QueuedLine *next;
    bool eof, has_nul, too_long;
    char text[];
} QueuedLine;

typedef struct {
    QueuedLine *head, *tail;
} LineQueue;

/* What the search callbacks need, fixed when the search starts. */
typedef struct {
    Dialect dialect;
    int rank_base;
    atomic_bool draw_offered;
} Session;

static struct {
    /* Shared by the reader, the dispatcher and the search callbacks. */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    LineQueue input; /* read, not yet taken by the dispatcher */
    uint64_t pushed, handled;
    bool thinking;    /* a search runs and has not been joined */
    bool search_done; /* the search has sent bestmove */
    bool batch;       /* setoption batch true: read nothing while thinking */
    FILE *in;

    /* Dispatcher only. */
    LineQueue pending; /* commands held until the search ends */
    Dialect dialect;
    ProtoSettings settings;
    Position pos;
    int ban_count;
    Move banned[MAX_MOVES];
    bool closing;       /* quit or end of input: read no more, stop every search */
    bool quit;          /* say bye at the end */
    bool just_answered; /* a search answered and no command came since */
    bool answered_now;  /* the command just run answered a go itself (book move) */
    Session session;
} P = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static Command Cmd; /* the dispatcher's parse buffer (large) */

/* ---- queues ---------------------------------------------------------- */

static void queue_push(LineQueue *q, QueuedLine *l) {
    l->next = NULL;
    if (q->tail)
        q->tail->next = l;
    else
        q->head = l;
    q->tail = l;
}

static QueuedLine *queue_pop(LineQueue *q) {
    QueuedLine *l = q->head;
    if (l) {
        q->head = l->next;
        if (!q->head) q->tail = NULL;
    }
    return l;
}

static QueuedLine *line_make(const InputLine *in, bool eof) {
    size_t len = eof ? 0 : in->len;
    QueuedLine *l = malloc(sizeof *l + len + 1);
    if (!l) abort();
    l->eof = eof;
    l->has_nul = !eof && in->has_nul;
    l->too_long = !eof && in->too_long;
    if (len) memcpy(l->text, in->text, len);
    l->text[len] = '\0';
    return l;
}

/* ---- reader thread --------------------------------------------------- */

/* Read lines and hand them over one at a time: each waits until the
 * dispatcher has taken the previous one, and in batch mode until the search
 * it started has answered. */
static void *reader_main(void *arg) {
    (void)arg;
    InputLine in = {0};
    for (;;) {
        bool ok = reader_next(P.in, &in);
        QueuedLine *l = line_make(&in, !ok);
        pthread_mutex_lock(&P.lock);
        queue_push(&P.input, l);
        P.pushed++;
        pthread_cond_broadcast(&P.cond);
        while (ok && (P.handled < P.pushed || (P.batch && P.thinking)))
            pthread_cond_wait(&P.cond, &P.lock);
        pthread_mutex_unlock(&P.lock);
        if (!ok) break;
    }
    reader_free(&in);
    return NULL;
}

/* ---- search callbacks (search thread) -------------------------------- */

static void on_info(void *ctx, const SearchInfo *info) {
    Session *s = ctx;
    char buf[FORMAT_LINE_MAX];
    out_line("%s", fmt_info(buf, sizeof buf, s->dialect, s->rank_base, info));
    if (s->dialect == DIALECT_UCCI) out_line("%s", fmt_info_time(buf, sizeof buf, info));
}

static void on_currmove(void *ctx, Move move, int number, int depth) {
    Session *s = ctx;
    char buf[FORMAT_LINE_MAX];
    out_line("%s", fmt_currmove(buf, sizeof buf, s->dialect, s->rank_base, move, number, depth));
}

static void on_bestmove(void *ctx, Move best, Move ponder, Score score, int depth) {
    Session *s = ctx;
    char buf[FORMAT_LINE_MAX];
    Verdict v = VERDICT_NONE;
    if (s->dialect == DIALECT_UCCI && best != MOVE_NONE)
        v = verdict_decide(&P.pos, score, depth, atomic_load(&s->draw_offered), &P.settings.verdict);
    /* Flag the end before the GUI can see bestmove: whatever it sends in
     * reply then finds the search over (the dispatcher joins this thread,
     * so the line below is out before anything else runs). */
    pthread_mutex_lock(&P.lock);
    P.search_done = true;
    pthread_cond_broadcast(&P.cond);
    pthread_mutex_unlock(&P.lock);
    if (best == MOVE_NONE && s->dialect != DIALECT_UCCI) out_line("info depth 0 score mate 0");
    out_line("%s", fmt_bestmove(buf, sizeof buf, s->dialect, s->rank_base, best, ponder, v));
}

static const SearchCallbacks Callbacks = {on_info, on_currmove, on_bestmove, &P.session};

/* ---- commands ---------------------------------------------------------- */

static int rank_base(void) { return options_rank_base(&P.settings, P.dialect); }

static void cmd_hello(Dialect d) {
    P.dialect = d;
    out_line("id name %s%s", version_text(), nnue_banner());
    if (d == DIALECT_UCCI) out_line("id copyright %s", TUONG_COPYRIGHT);
    out_line("id author %s", TUONG_AUTHOR);
    if (d == DIALECT_UCCI) out_line("id user unknown");
    options_print(d);
    out_line(d == DIALECT_UCCI ? "ucciok" : "uciok");
}

/* Build the position of a position/probe command into dst, or explain. */
static bool build_position(const PositionSpec *ps, Position *dst, char *err, size_t errlen) {
    static Position tmp;
    char detail[160];
    if (!fen_parse(&tmp, ps->startpos ? START_FEN : ps->fen, detail, sizeof detail)) {
        snprintf(err, errlen, "%s; command ignored", detail);
        return false;
    }
    for (int i = 0; i < ps->move_count; i++) {
        if (!move_is_legal(&tmp, ps->moves[i])) {
            char text[MOVE_TEXT_MAX];
            snprintf(err, errlen, "illegal move '%s' (move %d); command ignored",
                     move_to_text(ps->moves[i], rank_base(), text), i + 1);
            return false;
        }
        pos_make_move(&tmp, ps->moves[i]);
    }
    memcpy(dst, &tmp, offsetof(Position, history) + sizeof(StateInfo) * (size_t)(tmp.game_ply + 1));
    return true;
}

static void cmd_position(const PositionSpec *ps) {
    char err[256];
    if (!build_position(ps, &P.pos, err, sizeof err)) {
        out_error(P.dialect, "position: %s", err);
        return;
    }
    P.ban_count = 0;
}

static void cmd_probe(const PositionSpec *ps) {
    static Position probe_pos;
    char err[256], buf[FORMAT_LINE_MAX];
    if (!build_position(ps, &probe_pos, err, sizeof err)) {
        out_error(P.dialect, "probe: %s", err);
        return;
    }
    ProbeResult r = search_probe(&probe_pos);
    if (r.found && r.move != MOVE_NONE && !move_is_legal(&probe_pos, r.move)) r.move = MOVE_NONE;
    out_line("%s", fmt_pophash(buf, sizeof buf, rank_base(), &r));
}

static void cmd_newgame(void) {
    char err[160];
    search_clear();
    fen_parse(&P.pos, START_FEN, err, sizeof err);
    P.ban_count = 0;
}

static bool in_list(const Move *list, int n, Move m) {
    for (int i = 0; i < n; i++)
        if (list[i] == m) return true;
    return false;
}

/* The root moves a go may play: legal, not banned, and among searchmoves
 * when given. Returns false (with a message) if none is left. */
static bool root_moves(const GoSpec *g, SearchLimits *lim, int legal_count) {
    MoveList legal;
    gen_legal(&P.pos, &legal);
    if (!P.ban_count && !g->searchmove_count) return true;
    const Move *only = g->searchmoves;
    int only_n = g->searchmove_count;
    for (int i = 0; i < only_n; i++)
        if (!move_is_legal(&P.pos, only[i])) {
            char text[MOVE_TEXT_MAX];
            out_error(P.dialect, "go searchmoves: illegal move '%s' ignored", move_to_text(only[i], rank_base(), text));
        }
    for (int pass = 0; pass < 2; pass++) {
        lim->root_count = 0;
        for (int i = 0; i < legal.count; i++) {
            Move m = legal.moves[i];
            if (in_list(P.banned, P.ban_count, m)) continue;
            if (only_n && !in_list(only, only_n, m)) continue;
            lim->root_moves[lim->root_count++] = m;
        }
        if (lim->root_count || !only_n) break;
        out_error(P.dialect, "go searchmoves: no legal move listed; searching all moves");
        only_n = 0;
    }
    if (lim->root_count == 0 && legal_count > 0) {
        out_message(P.dialect, "every legal move is banned");
        return false;
    }
    return true;
}

/* Fill the clock fields from UCCI (own/opponent, GUI unit) or UCI (w/b, ms). */
static void set_clock(const GoSpec *g, SearchLimits *lim) {
    double unit = P.settings.usemillisec ? 1.0 : 1000.0;
    if (g->time >= 0) {
        lim->time_ms = (int64_t)(g->time * unit);
        lim->inc_ms = g->increment > 0 ? (int64_t)(g->increment * unit) : 0;
        if (g->opptime >= 0) lim->opp_time_ms = (int64_t)(g->opptime * unit);
        lim->opp_inc_ms = g->oppincrement > 0 ? (int64_t)(g->oppincrement * unit) : 0;
    }
    if (g->wtime >= 0 || g->btime >= 0) {
        bool red = P.pos.side == RED;
        int64_t own = red ? g->wtime : g->btime, opp = red ? g->btime : g->wtime;
        int64_t own_inc = red ? g->winc : g->binc, opp_inc = red ? g->binc : g->winc;
        lim->time_ms = own > 0 ? own : 0; /* a flagged clock may arrive negative */
        lim->inc_ms = own_inc > 0 ? own_inc : 0;
        lim->opp_time_ms = opp >= 0 ? opp : -1;
        lim->opp_inc_ms = opp_inc > 0 ? opp_inc : 0;
    }
    if (g->movetime >= 0) lim->movetime_ms = g->movetime > 0 ? g->movetime : 1;
    lim->movestogo = g->movestogo;
}

static void start_search(const SearchLimits *lim, bool draw_offered) {
    P.session.dialect = P.dialect;
    P.session.rank_base = rank_base();
    atomic_store(&P.session.draw_offered, draw_offered);
    pthread_mutex_lock(&P.lock);
    P.thinking = true;
    P.search_done = false;
    pthread_mutex_unlock(&P.lock);
    search_start(&P.pos, lim, &Callbacks);
    if (P.closing) search_stop(); /* nobody can stop it later */
}

static void cmd_go(const GoSpec *g) {
    static SearchLimits lim;
    memset(&lim, 0, offsetof(SearchLimits, root_moves));
    lim.time_ms = lim.opp_time_ms = -1;
    int legal_count = gen_count_legal(&P.pos);
    if (g->depth == 0 && P.dialect == DIALECT_UCCI) {
        out_line("info depth 0 score %d", evaluate(&P.pos));
        out_line("nobestmove");
        return;
    }
    if (!root_moves(g, &lim, legal_count)) {
        out_line(P.dialect == DIALECT_UCCI ? "nobestmove" : "bestmove (none)");
        return;
    }
    if (protocol_book_go(&P.settings, P.dialect, rank_base(), &P.pos, g, P.banned, P.ban_count)) {
        P.answered_now = true;
        return;
    }
    lim.depth = g->depth > 0 ? g->depth : g->depth == 0 ? 1 : 0;
    lim.nodes = g->nodes;
    lim.mate = g->mate;
    lim.infinite = g->infinite;
    lim.ponder = g->ponder;
    set_clock(g, &lim);
    if (P.settings.debug)
        out_message(P.dialect,
                    "debug: depth %d nodes %llu movetime %lld time %lld inc %lld movestogo %d opptime %lld "
                    "infinite %d ponder %d roots %d overhead %d",
                    lim.depth, (unsigned long long)lim.nodes, (long long)lim.movetime_ms, (long long)lim.time_ms,
                    (long long)lim.inc_ms, lim.movestogo, (long long)lim.opp_time_ms, lim.infinite, lim.ponder,
                    lim.root_count, Options.move_overhead_ms);
    start_search(&lim, g->draw);
}

static void cmd_banmoves(const Command *c) {
    P.ban_count = c->u.banmoves.count;
    memcpy(P.banned, c->u.banmoves.moves, sizeof(Move) * (size_t)P.ban_count);
}

static void cmd_setoption(const Command *c) {
    OptionAction a = options_set(&P.settings, P.dialect, c->u.option.name, c->u.option.value, c->u.option.has_value);
    pthread_mutex_lock(&P.lock);
    P.batch = P.settings.batch;
    pthread_mutex_unlock(&P.lock);
    if (a == OPTION_NEWGAME) cmd_newgame();
}

/* Perft on the Threads option's threads, from PERFT_TABLE_WORTH_DEPTH with
 * a perft table the size of the Hash option's (allocated for this count). */
static void cmd_perft(int depth) {
    PerftTable table = {0};
    bool hashed = depth >= PERFT_TABLE_WORTH_DEPTH && perft_table_init(&table, (size_t)Options.hash_mb << 20);
    if (depth >= PERFT_TABLE_WORTH_DEPTH && !hashed)
        out_message(P.dialect, "no memory for a %d MB perft table; counting without one", Options.hash_mb);
    PerftOptions opt = {.threads = Options.threads, .table = hashed ? &table : NULL};
    FILE *out = out_begin();
    perft_divide_with(&P.pos, depth, rank_base(), &opt, out);
    out_end();
    perft_table_free(&table);
}

/* eval: the network's output when one is loaded, then the hand-crafted
 * terms (without a network in use, or when asked: eval classical). */
static void cmd_eval(bool classical) {
    FILE *out = out_begin();
    const char *prefix = out_info_prefix(P.dialect);
    nnue_print(&P.pos, prefix, out);
    if (classical || !nnue_active())
        eval_trace(&P.pos, prefix, out);
    else
        fprintf(out, "%sclassical %d (side to move); 'eval classical' shows its terms\n", prefix,
                eval_classical(&P.pos));
    static const char *const Reduced[] = {"material only: knowledge none", "knowledge small", "knowledge medium"};
    EvalKnowledge k = eval_knowledge();
    fprintf(out, "%sevaluate() %d (side to move, %s)\n", prefix, evaluate(&P.pos),
            k != KNOWLEDGE_LARGE ? Reduced[k] : nnue_active() ? "NNUE" : "classical");
    out_end();
}

static void cmd_help(void) {
    static const char *const Lines[] = {
        "Tuong speaks UCCI (first command: ucci) and UCI xiangqi (first command: uci).",
        "Protocol: isready, setoption, position {startpos|fen F} [moves ...], banmoves ..., go ..., ponderhit [draw],",
        "          stop, probe {startpos|fen F} [moves ...], ucinewgame, quit",
        "Extras:   d (board), eval [classical] (network output / terms), go perft N / perft N, bench [depth], help",
        "See docs/protocol.md for every option and reply.",
    };
    for (size_t i = 0; i < sizeof Lines / sizeof Lines[0]; i++)
        out_line("%s", Lines[i]);
}

/* Run one command (the engine is idle, or the command may run while
 * thinking). */
static void execute(const Command *c) {
    switch (c->type) {
    case CMD_EMPTY:
    case CMD_UNKNOWN: break;
    case CMD_UCCI: cmd_hello(DIALECT_UCCI); break;
    case CMD_UCI: cmd_hello(DIALECT_UCI); break;
    case CMD_ISREADY: out_line("readyok"); break;
    case CMD_SETOPTION: cmd_setoption(c); break;
    case CMD_POSITION: cmd_position(&c->u.position); break;
    case CMD_PROBE: cmd_probe(&c->u.position); break;
    case CMD_BANMOVES: cmd_banmoves(c); break;
    case CMD_GO: cmd_go(&c->u.go); break;
    case CMD_PERFT: cmd_perft(c->u.depth); break;
    case CMD_NEWGAME: cmd_newgame(); break;
    case CMD_DISPLAY: board_print(&P.pos, rank_base(), out_begin()), out_end(); break;
    case CMD_EVAL: cmd_eval(c->u.eval_classical); break;
    case CMD_BENCH: search_bench(c->u.depth, out_begin()), out_end(); break;
    case CMD_HELP: cmd_help(); break;
    case CMD_PONDERHIT: break; /* nothing to hit when idle */
    case CMD_STOP:
        /* A stop right behind a search's own answer was meant for it. */
        if (P.dialect == DIALECT_UCCI && !P.just_answered) out_line("nobestmove");
        break;
    case CMD_QUIT: P.quit = P.closing = true; break;
    }
}

/* Parse a line and report problems; false if there is nothing to run. */
static bool parse_line(const QueuedLine *l, Command *c) {
    char err[256];
    if (l->too_long) {
        out_error(P.dialect, "line longer than %d bytes ignored", READER_LINE_MAX);
        return false;
    }
    if (l->has_nul) {
        out_error(P.dialect, "line with a NUL byte ignored");
        return false;
    }
    ParseResult r = proto_parse(l->text, rank_base(), c, err, sizeof err);
    if (r != PARSE_OK) out_error(P.dialect, "%s", err);
    return r != PARSE_ERROR && c->type != CMD_EMPTY;
}

/* Commands answered at once even while the search runs. */
static void execute_while_thinking(const Command *c) {
    switch (c->type) {
    case CMD_ISREADY: out_line("readyok"); break;
    case CMD_STOP: search_stop(); break;
    case CMD_PONDERHIT:
        if (c->u.draw) atomic_store(&P.session.draw_offered, true);
        search_ponderhit();
        break;
    case CMD_PROBE: cmd_probe(&c->u.position); break;
    case CMD_QUIT:
        P.quit = P.closing = true;
        search_stop();
        break;
    default: break;
    }
}

static bool runs_while_thinking(CommandType t) {
    return t == CMD_ISREADY || t == CMD_STOP || t == CMD_PONDERHIT || t == CMD_PROBE || t == CMD_QUIT;
}

/* Run one line when idle. A `stop` right behind a go the book answered
 * at once was meant for that go, as for a search's own answer. */
static void run_line(const QueuedLine *l) {
    P.answered_now = false;
    if (parse_line(l, &Cmd)) execute(&Cmd);
    P.just_answered = P.answered_now;
}

/* Run held commands in order until one starts a new search. */
static void drain_pending(void) {
    QueuedLine *l;
    while (!P.thinking && (l = queue_pop(&P.pending))) {
        run_line(l);
        free(l);
    }
}

/* Take one line from the reader: run it, answer it now, or hold it. */
static void dispatch(QueuedLine *l) {
    if (l->eof || P.closing) {
        if (l->eof && !P.closing) {
            P.closing = true;
            if (P.thinking) search_stop();
        }
        free(l);
        return;
    }
    if (!P.thinking) {
        run_line(l);
        free(l);
        return;
    }
    /* Thinking: classify without side effects, answer or hold. */
    char err[256];
    if (l->too_long || l->has_nul || proto_parse(l->text, rank_base(), &Cmd, err, sizeof err) == PARSE_ERROR ||
        !runs_while_thinking(Cmd.type)) {
        queue_push(&P.pending, l);
        return;
    }
    execute_while_thinking(&Cmd);
    free(l);
}

/* The search has answered: join it and run what waited. */
static void finish_search(void) {
    search_wait();
    pthread_mutex_lock(&P.lock);
    P.thinking = false;
    pthread_cond_broadcast(&P.cond);
    pthread_mutex_unlock(&P.lock);
    P.just_answered = !P.pending.head;
    drain_pending();
}

int protocol_loop(FILE *in, FILE *out) {
    char err[160];
    out_init(out);
    search_init();
    options_defaults(&P.settings);
    fen_parse(&P.pos, START_FEN, err, sizeof err);
    P.in = in;
    pthread_t reader;
    if (pthread_create(&reader, NULL, reader_main, NULL) != 0) {
        fprintf(stderr, "tuong: cannot start the reader thread\n");
        return 1;
    }
    pthread_detach(reader);
    for (;;) {
        pthread_mutex_lock(&P.lock);
        while (!P.input.head && !P.search_done)
            pthread_cond_wait(&P.cond, &P.lock);
        if (P.search_done) {
            P.search_done = false;
            pthread_mutex_unlock(&P.lock);
            finish_search();
        } else {
            QueuedLine *l = queue_pop(&P.input);
            pthread_mutex_unlock(&P.lock);
            dispatch(l);
            pthread_mutex_lock(&P.lock);
            P.handled++;
            pthread_cond_broadcast(&P.cond);
            pthread_mutex_unlock(&P.lock);
        }
        if (P.closing && !P.thinking && !P.pending.head) break;
    }
    if (P.thinking) search_stop();
    search_shutdown();
    book_set_clear(&P.settings.books);
    if (P.quit && P.dialect == DIALECT_UCCI) out_line("bye");
    return 0;
}

int protocol_bench_command(const char *depth, FILE *out) {
    int d = 0; /* the search picks its default depth */
    if (depth) {
        char *end;
        long v = strtol(depth, &end, 10);
        if (end == depth || *end || v < 1 || v > 64) {
            fprintf(stderr, "tuong: error: bench needs a depth from 1 to 64\n");
            return 2;
        }
        d = (int)v;
    }
    search_init();
    search_bench(d, out);
    fflush(out);
    search_shutdown();
    return 0;
}
