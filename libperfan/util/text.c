/* util/text.c: UTF-8 checked, JSON string literals and terminal text:
 * what every writer of text that came from an input shares. */
#include <perfan/text.h>

#include <stdint.h>

size_t perfan_utf8_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;
	uint32_t min, cp;
	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, min = 0x80, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, min = 0x800, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, min = 0x10000, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void perfan_json_string(FILE *fp, const char *str)
{
	const char *s = str ? str : "";
	size_t n = 0;
	while (s[n])
		n++;
	fputc('"', fp);
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = perfan_utf8_len(s + i, n - i);
		if (!len) {
			fputs("\\ufffd", fp);
			i++;
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\t': fputs("\\t", fp); break;
		case '\r': fputs("\\r", fp); break;
		default:
			if (c < 0x20)
				fprintf(fp, "\\u%04x", c);
			else
				fwrite(s + i, 1, len, fp);
		}
		i += len;
	}
	fputc('"', fp);
}

void perfan_text_escape(FILE *fp, const char *str)
{
	const char *s = str ? str : "";
	size_t n = 0;
	while (s[n])
		n++;
	for (size_t i = 0; i < n;) {
		const unsigned char *u = (const unsigned char *)s + i;
		size_t len = perfan_utf8_len(s + i, n - i);
		/* U+0080..U+009F: C1 controls (CSI is U+009B) */
		int c1 = len == 2 && u[0] == 0xc2 && u[1] < 0xa0;
		if (!len || c1 || u[0] < 0x20 || u[0] == 0x7f) {
			size_t k = len ? len : 1;
			for (size_t j = 0; j < k; j++) {
				if (u[j] == '\n')
					fputs("\\n", fp);
				else if (u[j] == '\t')
					fputs("\\t", fp);
				else
					fprintf(fp, "\\x%02x", u[j]);
			}
			i += k;
			continue;
		}
		if (u[0] == '\\')
			fputs("\\\\", fp);
		else
			fwrite(u, 1, len, fp);
		i += len;
	}
}
