/* render/markup.h: text from inputs inside XML and HTML (render/markup.c),
 * for the SVG and the triage page. */
#ifndef PERFAN_RENDER_MARKUP_H
#define PERFAN_RENDER_MARKUP_H

#include <stddef.h>
#include <stdio.h>

/* The length of the UTF-8 sequence at S (at most N bytes), 0 when it is
 * invalid or one that XML cannot hold (U+FFFE, U+FFFF). */
size_t perfan__markup_utf8_len(const unsigned char *s, size_t n);

/* N bytes of S as character data (attribute values included): markup
 * escaped, and what XML cannot hold (control characters, broken UTF-8) as
 * U+FFFD. Returns how many characters were written. */
size_t perfan__markup_text(FILE *fp, const char *s, size_t n);

#endif
