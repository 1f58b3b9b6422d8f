/*
 * unicode.c: the characters that must not reach a reader raw. Decoding one
 * UTF-8 character, and the code points that reorder or hide text (bidi
 * controls, invisible format characters, C1 controls, Unicode line
 * separators): requests may not carry them, and text mode never prints
 * them (docs/PROTOCOL.md, "Untrusted text").
 */
#include <stddef.h>
#include <stdint.h>

#include "protocol/protocol.h"

/* Inclusive ranges of code points that reorder or hide text. */
static const struct {
	uint32_t lo, hi;
} unicode_hiding[] = {
    {0x0080, 0x009f},   /* C1 controls, U+0085 (next line) among them */
    {0x00ad, 0x00ad},   /* soft hyphen */
    {0x034f, 0x034f},   /* combining grapheme joiner */
    {0x061c, 0x061c},   /* Arabic letter mark */
    {0x115f, 0x1160},   /* Hangul fillers */
    {0x17b4, 0x17b5},   /* Khmer invisible vowels */
    {0x180b, 0x180f},   /* Mongolian selectors and vowel separator */
    {0x200b, 0x200c},   /* zero width space, non-joiner */
    {0x200e, 0x200f},   /* left-to-right and right-to-left marks */
    {0x2028, 0x2029},   /* line and paragraph separators */
    {0x202a, 0x202e},   /* bidi embeddings and overrides */
    {0x2060, 0x2064},   /* word joiner, invisible operators */
    {0x2066, 0x2069},   /* bidi isolates */
    {0x206a, 0x206f},   /* deprecated format characters */
    {0x3164, 0x3164},   /* Hangul filler */
    {0xfeff, 0xfeff},   /* zero width no-break space (BOM) */
    {0xffa0, 0xffa0},   /* halfwidth Hangul filler */
    {0xfff9, 0xfffb},   /* interlinear annotation */
    {0x1bca0, 0x1bca3}, /* shorthand format controls */
    {0x1d173, 0x1d17a}, /* musical format controls */
    {0xe0000, 0xe007f}, /* tags */
};

size_t
proto_utf8_next(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, k;
	uint32_t v;

	if (len == 0)
		return 0;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 1, v = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 2, v = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 3, v = p[0] & 0x07;
	else
		return 0;
	if (len - 1 < n)
		return 0;
	for (k = 1; k <= n; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[k] & 0x3f);
	}
	if ((n == 2 && v < 0x800) || (n == 3 && v < 0x10000) ||
	    (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
		return 0;
	*cp = v;
	return n + 1;
}

int
proto_char_hides(uint32_t cp)
{
	size_t i;

	if (cp < 0x80)
		return 0;
	for (i = 0; i < sizeof unicode_hiding / sizeof unicode_hiding[0]; i++)
		if (cp >= unicode_hiding[i].lo && cp <= unicode_hiding[i].hi)
			return 1;
	return 0;
}

int
proto_char_breaks(uint32_t cp)
{
	return cp == '\n' || cp == '\r' || cp == 0x85 || cp == 0x2028 ||
	    cp == 0x2029;
}

size_t
proto_text_hiding(const char *s, size_t len, uint32_t *cp)
{
	size_t i = 0, n;

	while (i < len) {
		n = proto_utf8_next(s + i, len - i, cp);
		if (n == 0) {
			*cp = (unsigned char)s[i];
			return i;
		}
		if (proto_char_hides(*cp))
			return i;
		i += n;
	}
	return len;
}
