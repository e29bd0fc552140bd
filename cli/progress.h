/* cli/progress.h: a progress line on stderr while a long input is read,
 * and warnings printed so that they do not collide with it. */
#ifndef PERFAN_CLI_PROGRESS_H
#define PERFAN_CLI_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/perfan.h>

/* Start the line for input NAME of SIZE bytes (0: unknown), shown only
 * when stderr is a terminal and reading takes more than half a second;
 * CMD names the command in it. */
void cli_progress_start(const char *cmd, const char *name, uint64_t size);
/* Bytes read (text inputs) and the perf.data reader's position. */
void cli_progress_add(uint64_t n, void *payload);
void cli_progress_at(uint64_t off, void *payload);
/* Stop and clear the line. */
void cli_progress_end(void);
/* A perfan_log_fn: warnings as "perfan CMD: warning: ..." (CMD as given
 * to the last cli_progress_start, or PAYLOAD when it is a string). */
void cli_progress_log(enum perfan_log_level level, const char *msg,
		      void *payload);

#endif
