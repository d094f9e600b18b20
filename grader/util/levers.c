#include "levers.h"

#include <stdlib.h>
#include <string.h>

int sl_lever_in(const char *levers, const char *name)
{
    if (!levers) /* unset: the levers proven not to change a verdict */
        levers = SL_LEVERS_DEFAULT;
    size_t n = strlen(name);
    for (const char *s = levers; *s;) {
        size_t len = strcspn(s, ", ");
        if (len == n && strncmp(s, name, n) == 0)
            return 1;
        s += len;
        s += strspn(s, ", ");
    }
    return 0;
}

int sl_lever_on(const char *name) { return sl_lever_in(getenv("SYNCLAB_LEVERS"), name); }
