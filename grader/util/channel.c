#include "channel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int sl_channel_open(const char *name)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0)
        return fd;
    /* no memfd (old kernel): an unlinked temporary file does the same */
    char path[] = "/tmp/synclab-channel-XXXXXX";
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
        unlink(path);
    return fd;
}

int sl_channel_put(int fd, const char *text)
{
    size_t len = strlen(text), done = 0;
    if (ftruncate(fd, 0) != 0)
        return -1;
    while (done < len) {
        ssize_t n = pwrite(fd, text + done, len - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

char *sl_channel_get(int fd, size_t max)
{
    off_t size = lseek(fd, 0, SEEK_END);
    if (size <= 0)
        return NULL;
    size_t len = (size_t)size < max ? (size_t)size : max, done = 0;
    char *buf = malloc(len + 1);
    if (!buf)
        return NULL;
    while (done < len) {
        ssize_t n = pread(fd, buf + done, len - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    buf[done] = '\0';
    return buf;
}

void sl_channel_close(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}
