/*
 * number.c: the hot integer members of messages (seq, clocks, the ping's
 * time) as cJSON raw items holding their decimal digits, and reading a
 * member back whether it is a raw integer or a cJSON number. cJSON prints
 * each number with "%1.15g" and reads it back with sscanf to check it (a
 * fifth of the server's CPU per ping); a raw item it prints as it is.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

#define NUMBER_CHARS PROTO_INT_CHARS

/* Digits a raw integer may have to be read back: any integer a double
 * holds exactly (PROTO_INT_MAX has 16) reads back, and strtoll cannot
 * overflow. */
#define NUMBER_DIGITS_MAX 18

/* "00" to "99": digits are written two at a time (half the divisions). */
static const char number_pairs[201] =
    "000102030405060708091011121314151617181920212223242526272829"
    "303132333435363738394041424344454647484950515253545556575859"
    "606162636465666768697071727374757677787980818283848586878889"
    "90919293949596979899";

/* v in decimal at the end of buf[NUMBER_CHARS]; where it starts. */
static char *
number_format(char buf[NUMBER_CHARS], long long v)
{
	char *p = buf + NUMBER_CHARS - 1;
	unsigned long long u =
	    v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	unsigned d;

	*p = '\0';
	while (u >= 100) {
		d = (unsigned)(u % 100) * 2;
		u /= 100;
		*--p = number_pairs[d + 1];
		*--p = number_pairs[d];
	}
	d = (unsigned)u * 2;
	*--p = number_pairs[d + 1];
	if (u >= 10)
		*--p = number_pairs[d];
	if (v < 0)
		*--p = '-';
	return p;
}

char *
proto_int_digits(char buf[PROTO_INT_CHARS], long long v)
{
	return number_format(buf, v);
}

cJSON *
proto_int(long long v)
{
	char buf[NUMBER_CHARS];

	return cJSON_CreateRaw(number_format(buf, v));
}

cJSON *
proto_add_int(cJSON *o, const char *key, long long v)
{
	char buf[NUMBER_CHARS];

	return cJSON_AddRawToObject(o, key, number_format(buf, v));
}

/* Whether s is an integer as number_format writes it (an optional '-',
 * then digits, no leading zero), short enough to read back exactly. */
static int
number_is_int(const char *s)
{
	size_t n;

	if (*s == '-')
		s++;
	n = strspn(s, "0123456789");
	return n > 0 && n <= NUMBER_DIGITS_MAX && s[n] == '\0' &&
	    (s[0] != '0' || n == 1);
}

int
proto_number(const cJSON *v, double *out)
{
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return 1;
	}
	if (cJSON_IsRaw(v) && v->valuestring != NULL &&
	    number_is_int(v->valuestring)) {
		*out = (double)strtoll(v->valuestring, NULL, 10);
		return 1;
	}
	return 0;
}
