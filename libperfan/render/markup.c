/* render/markup.c: text from inputs as XML and HTML character data. */
#include "render/markup.h"

#include <perfan/text.h>

size_t perfan__markup_utf8_len(const unsigned char *s, size_t n)
{
	size_t len = perfan_utf8_len((const char *)s, n);
	if (len == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	return len;
}

size_t perfan__markup_text(FILE *fp, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t chars = 0;
	for (size_t i = 0; i < n; chars++) {
		unsigned char c = u[i];
		size_t len = perfan__markup_utf8_len(u + i, n - i);
		if (!len || (c < 0x20 && c != '\t')) {
			fputs("\xef\xbf\xbd", fp);
			i++;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: fwrite(u + i, 1, len, fp); break;
		}
		i += len;
	}
	return chars;
}
