/* render/annotate.h: the annotate sink's JSON half (annotate_json.c), for
 * perfan_annotate_write in annotate_write.c. */
#ifndef PERFAN_RENDER_ANNOTATE_H
#define PERFAN_RENDER_ANNOTATE_H

#include <stdio.h>

#include <perfan/annotate.h>

void perfan__annotate_json(FILE *fp, const struct perfan_annotate_result *r);

#endif
