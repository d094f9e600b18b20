/* CSV as spreadsheets and pandas read it (RFC 4180): a field with a comma,
 * quote, CR or LF, or with spaces at either end, is quoted with inner
 * quotes doubled; rows end with CRLF. A text field starting with = + - @
 * (a student folder named "=HYPERLINK(...)") gets a leading ' so that a
 * spreadsheet shows it instead of running it as a formula. */
#ifndef SYNCLAB_CSV_H
#define SYNCLAB_CSV_H

#include "text.h"

typedef struct {
    sl_text text; /* the CSV so far */
    int fields;   /* fields in the current row */
} sl_csv;

void sl_csv_text(sl_csv *c, const char *field);
void sl_csv_number(sl_csv *c, double v);
void sl_csv_end_row(sl_csv *c);
void sl_csv_free(sl_csv *c);

#endif
