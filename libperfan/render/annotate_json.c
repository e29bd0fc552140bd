/* render/annotate_json.c: the annotate result as one JSON object (the
 * fields perfan-annotate(1) lists). */
#include <stdio.h>

#include <perfan/annotate.h>

#include "render/annotate.h"
#include "render/json.h"

static void json_inlined(struct perfan__json *j,
			 const struct perfan_annotate_line *l)
{
	perfan__json_open(j, "inlined_from", '[');
	for (size_t k = 0; k < l->nr_inlined; k++) {
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "function", l->inlined[k].function);
		perfan__json_str(j, "file", l->inlined[k].file);
		perfan__json_u64(j, "line", l->inlined[k].line);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
}

static void json_summary(struct perfan__json *j,
			 const struct perfan_annotate_func *f)
{
	perfan__json_open(j, "summary", '{');
	perfan__json_open(j, "lines", '[');
	for (size_t i = 0; i < f->nr_hot_lines; i++) {
		const struct perfan_annotate_line *l =
			&f->lines[f->hot_lines[i]];
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "file", l->file);
		perfan__json_u64(j, "line", l->line);
		perfan__json_f64(j, "local_percent", l->local_percent, 4);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_open(j, "instructions", '[');
	for (size_t i = 0; i < f->nr_hot_insns; i++) {
		const struct perfan_annotate_insn *in =
			&f->insns[f->hot_insns[i]];
		perfan__json_open(j, NULL, '{');
		perfan__json_u64(j, "addr", in->addr);
		perfan__json_str(j, "text", in->text);
		perfan__json_f64(j, "local_percent", in->local_percent, 4);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_close(j, '}');
}

static void json_func(struct perfan__json *j,
		      const struct perfan_annotate_func *f)
{
	static const char *const status[] = {"ok", "no binary", "no decoder"};
	perfan__json_open(j, NULL, '{');
	perfan__json_str(j, "name", f->name);
	perfan__json_str(j, "raw_name", f->raw_name);
	perfan__json_str(j, "dso", f->dso);
	perfan__json_str(j, "dso_path", f->dso_path);
	perfan__json_str(j, "binary", f->binary);
	perfan__json_str(j, "debug_file", f->debug_file);
	perfan__json_str(j, "build_id", f->build_id);
	perfan__json_u64(j, "start", f->start);
	perfan__json_u64(j, "size", f->size);
	perfan__json_u64(j, "samples", f->samples);
	perfan__json_u64(j, "period", f->period);
	perfan__json_f64(j, "percent", f->percent, 4);
	perfan__json_str(j, "status", f->status < 3 ? status[f->status] : "?");
	perfan__json_str(j, "status_text", f->status_text);
	perfan__json_bool(j, "has_lines", f->has_lines);
	json_summary(j, f);
	perfan__json_open(j, "loops", '[');
	for (size_t i = 0; i < f->nr_loops; i++) {
		perfan__json_open(j, NULL, '{');
		perfan__json_u64(j, "head", f->loops[i].head);
		perfan__json_u64(j, "back_jump", f->loops[i].back_jump);
		perfan__json_u64(j, "samples", f->loops[i].samples);
		perfan__json_f64(j, "local_percent", f->loops[i].local_percent,
				 4);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_open(j, "instructions", '[');
	for (size_t i = 0; i < f->nr_insns; i++) {
		const struct perfan_annotate_insn *in = &f->insns[i];
		perfan__json_open(j, NULL, '{');
		perfan__json_u64(j, "addr", in->addr);
		perfan__json_str(j, "text", in->text);
		perfan__json_u64(j, "samples", in->samples);
		perfan__json_u64(j, "period", in->period);
		perfan__json_f64(j, "local_percent", in->local_percent, 4);
		perfan__json_f64(j, "global_percent", in->global_percent, 4);
		perfan__json_i64(j, "line", in->line);
		perfan__json_bool(j, "jump_target",
				  !!(in->flags & PERFAN_INSN_JUMP_TARGET));
		perfan__json_bool(j, "loop_head",
				  !!(in->flags & PERFAN_INSN_LOOP_HEAD));
		perfan__json_bool(j, "back_jump",
				  !!(in->flags & PERFAN_INSN_BACK_JUMP));
		if (in->target)
			perfan__json_u64(j, "target", in->target);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_open(j, "lines", '[');
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct perfan_annotate_line *l = &f->lines[i];
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "file", l->file);
		perfan__json_u64(j, "line", l->line);
		perfan__json_str(j, "text", l->text);
		perfan__json_u64(j, "samples", l->samples);
		perfan__json_u64(j, "period", l->period);
		perfan__json_f64(j, "local_percent", l->local_percent, 4);
		perfan__json_f64(j, "global_percent", l->global_percent, 4);
		json_inlined(j, l);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_close(j, '}');
}

void perfan__annotate_json(FILE *fp, const struct perfan_annotate_result *r)
{
	struct perfan__json j;
	perfan__json_init(&j, fp, 1);
	perfan__json_open(&j, NULL, '{');
	perfan__json_str(&j, "event", r->event);
	perfan__json_u64(&j, "total_samples", r->total_samples);
	perfan__json_u64(&j, "total_period", r->total_period);
	perfan__json_u64(&j, "unattributed_samples", r->unattributed_samples);
	perfan__json_u64(&j, "other_event_samples", r->other_event_samples);
	perfan__json_str(&j, "note", r->note);
	perfan__json_strs(&j, "missing", r->missing, r->nr_missing);
	perfan__json_open(&j, "unresolved", '[');
	for (size_t i = 0; i < r->nr_unresolved; i++) {
		perfan__json_open(&j, NULL, '{');
		perfan__json_str(&j, "dso_path", r->unresolved[i].dso_path);
		perfan__json_u64(&j, "samples", r->unresolved[i].samples);
		perfan__json_bool(&j, "found", r->unresolved[i].found);
		perfan__json_str(&j, "why", r->unresolved[i].why);
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_open(&j, "functions", '[');
	for (size_t i = 0; i < r->nr_functions; i++)
		json_func(&j, &r->functions[i]);
	perfan__json_end(&j);
}
