/* util/json.c: JSON string literals. */
#include "util/json.h"

void perfan__json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (const unsigned char *q = (const unsigned char *)(s ? s : ""); *q;
	     q++) {
		switch (*q) {
		case '"': fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\t': fputs("\\t", fp); break;
		case '\r': fputs("\\r", fp); break;
		default:
			if (*q < 0x20)
				fprintf(fp, "\\u%04x", *q);
			else
				fputc(*q, fp);
		}
	}
	fputc('"', fp);
}
