/*
 * said.c: a sentence together with what it was printed from (gettext's
 * msgid and its arguments), so that a client can show it in another
 * language: the format string is the msgid, and the arguments are taken
 * from the va_list by walking the format's conversions. rules_seterr keeps
 * the last reason it wrote, per thread, so that the server can find the
 * msgid of a reason a game gave it as plain text.
 */
#include "rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The last reason rules_seterr wrote on this thread, and the one before
 * it (a reason often wraps the one before: "option 'position': %s"). */
static _Thread_local struct rules_said said_last, said_prev;

/* Keep the sentence fmt makes with ap as the last, the last as the one
 * before. */
static void
said_keep(const char *fmt, va_list ap)
{
	said_prev = said_last;
	rules_said_vset(&said_last, fmt, ap);
}

/* Keep n bytes of s as the next string argument; 0, or -1 when the pool
 * has no room left (the sentence then has no msgid). */
static int
said_keep_str(struct rules_said *s, const char *str, size_t n)
{
	struct rules_said_arg *a = &s->args[s->nargs];

	if (str == NULL)
		str = "(null)";
	n = strnlen(str, n);
	if (s->used + n + 1 > sizeof s->pool)
		return -1;
	memcpy(s->pool + s->used, str, n);
	s->pool[s->used + n] = '\0';
	a->kind = RULES_SAID_STR;
	a->off = s->used;
	s->used += n + 1;
	return 0;
}

/* Skip a conversion's flags, width and precision from *p, taking a '*'
 * width or precision as an int argument; the precision, or -1. */
static int
said_prefix(struct rules_said *s, const char **p, va_list *ap, int *ok)
{
	const char *q = *p;
	int prec = -1;

	while (*q != '\0' && strchr("-+ #0'", *q) != NULL)
		q++;
	if (*q == '*') {
		if (s->nargs >= RULES_SAID_ARGS)
			*ok = 0;
		else {
			s->args[s->nargs].kind = RULES_SAID_INT;
			s->args[s->nargs++].num = va_arg(*ap, int);
		}
		q++;
	}
	while (*q >= '0' && *q <= '9')
		q++;
	if (*q == '.') {
		q++;
		prec = 0;
		if (*q == '*') {
			prec = va_arg(*ap, int);
			if (s->nargs >= RULES_SAID_ARGS)
				*ok = 0;
			else {
				s->args[s->nargs].kind = RULES_SAID_INT;
				s->args[s->nargs++].num = prec;
			}
			q++;
		}
		while (*q >= '0' && *q <= '9')
			prec = prec * 10 + (*q++ - '0');
	}
	*p = q;
	return prec;
}

/* Take one conversion's argument (the length modifier at *p, then the
 * letter) from ap into s; 0, or -1 for a conversion it does not know. */
static int
said_take(struct rules_said *s, const char **p, int prec, va_list *ap)
{
	const char *q = *p;
	int l = 0, z = 0;
	struct rules_said_arg *a = &s->args[s->nargs];

	for (;; q++) {
		if (*q == 'l')
			l++;
		else if (*q == 'z' || *q == 'j' || *q == 't')
			z = 1;
		else if (*q != 'h') /* a short is passed as an int */
			break;
	}
	*p = q + 1;
	a->kind = RULES_SAID_INT;
	switch (*q) {
	case 'd':
	case 'i':
		a->num = l >= 2 || z ? va_arg(*ap, long long)
		    : l == 1         ? va_arg(*ap, long)
		                     : va_arg(*ap, int);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		a->num =
		    (long long)(l >= 2 || z ? va_arg(*ap, unsigned long long)
		            : l == 1        ? va_arg(*ap, unsigned long)
		                            : va_arg(*ap, unsigned));
		break;
	case 'c': {
		char c = (char)va_arg(*ap, int);

		return said_keep_str(s, &c, 1);
	}
	case 's':
		return said_keep_str(s, va_arg(*ap, const char *),
		    prec >= 0 ? (size_t)prec : SIZE_MAX);
	case 'f':
	case 'g':
	case 'e':
		a->kind = RULES_SAID_REAL;
		a->real = va_arg(*ap, double);
		break;
	default:
		return -1;
	}
	return 0;
}

/* Format fmt with ap into s->text and keep fmt and its arguments; s->fmt
 * is NULL when they could not all be kept (the text is still right). */
void
rules_said_vset(struct rules_said *s, const char *fmt, va_list ap)
{
	va_list walk;
	const char *p = fmt;
	int ok = 1;

	s->fmt = NULL;
	s->nargs = 0;
	s->used = 0;
	va_copy(walk, ap);
	vsnprintf(s->text, sizeof s->text, fmt, ap);
	while (ok && (p = strchr(p, '%')) != NULL) {
		int prec;

		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		prec = said_prefix(s, &p, &walk, &ok);
		if (!ok || s->nargs >= RULES_SAID_ARGS ||
		    said_take(s, &p, prec, &walk) != 0)
			ok = 0;
		else
			s->nargs++;
	}
	va_end(walk);
	if (ok)
		s->fmt = fmt;
}

/* rules_said_vset with the arguments given. */
void
rules_said_set(struct rules_said *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rules_said_vset(s, fmt, ap);
	va_end(ap);
}

/* The string argument i of s. */
const char *
rules_said_str(const struct rules_said *s, int i)
{
	return s->pool + s->args[i].off;
}

/* Keep the sentence fmt makes with ap as this thread's last reason, for
 * rules_said_of (protocol's proto_errf keeps its reasons here too). */
void
rules_said_vkeep(const char *fmt, va_list ap)
{
	said_keep(fmt, ap);
}

/* Format a reason into a caller's buffer, always NUL-terminated, and keep
 * its msgid for rules_said_of. */
void
rules_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	said_keep(fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s", said_last.text);
}

/* rules_seterr for a move's sentence (describe_move): kept the same way,
 * so that the server can send its msgid with it. */
void
rules_say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf == NULL || len == 0)
		return;
	va_start(ap, fmt);
	said_keep(fmt, ap);
	va_end(ap);
	snprintf(buf, len, "%s", said_last.text);
}

/* The msgid and arguments of text when it is the last reason rules_seterr
 * wrote on this thread (and was not cut short), else NULL. */
const struct rules_said *
rules_said_of(const char *text)
{
	if (said_last.fmt == NULL || text == NULL ||
	    strcmp(said_last.text, text) != 0)
		return NULL;
	return &said_last;
}

/* The sentence kept on this thread (the last or the one before) whose
 * text is an argument of outer, for a client to translate inside it; NULL
 * when there is none, or it is outer itself. */
const struct rules_said *
rules_said_inside(const char *text, const struct rules_said *outer)
{
	const struct rules_said *kept[] = {&said_last, &said_prev};
	size_t i;

	for (i = 0; i < sizeof kept / sizeof kept[0]; i++)
		if (kept[i] != outer && kept[i]->fmt != NULL &&
		    strcmp(kept[i]->fmt, "%s") != 0 && text != NULL &&
		    strcmp(kept[i]->text, text) == 0)
			return kept[i];
	return NULL;
}
