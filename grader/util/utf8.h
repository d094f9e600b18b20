/* Text from compilers and students' programs goes into JSON and XML read
 * by other tools; invalid UTF-8 or control characters would make those
 * files unreadable. */
#ifndef SYNCLAB_UTF8_H
#define SYNCLAB_UTF8_H

#include <stddef.h>
#include "text.h"

/* Appends s (at most max bytes, then "[... cut]") to out with every invalid
 * UTF-8 sequence replaced by U+FFFD and, when drop_controls, the control
 * characters other than \t \n \r removed (XML 1.0 forbids them). */
void sl_utf8_clean(sl_text *out, const char *s, size_t max, int drop_controls);

#endif
