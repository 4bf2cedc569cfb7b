/*
 * unpack.c — compressed inputs (app.h, "Compressed inputs"), part of the programs' layer:
 * an input is told by its first bytes (gzip, zstd, xz; zip, bzip2 and NUL bytes as binary
 * that is no puzzle text), and a compressed one is read through a stdio stream whose read
 * hook decompresses as the reader asks (fopencookie): constant memory, no pipe, no helper
 * process, and the readers see exactly the bytes of the plain file. A plain file is the
 * fopen'ed file itself, so its reads stay read(2) straight into the reader's buffer.
 *
 * Each decompressor is optional at build time (HAVE_ZLIB, HAVE_ZSTD, HAVE_LZMA: the Makefile
 * probes for the headers), since a cross build may lack the target's libraries; a build
 * without one still tells the format, so it can say why it does not read it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif

#include "app.h"

/* compressed bytes read at a time */
enum { RAW_BUF = 1 << 16 };

sb_input_kind sb_input_sniff(const void *p, size_t n)
{
    const unsigned char *b = p;
    if (!b)
        return SB_INPUT_TEXT;
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        return SB_INPUT_GZIP;
    if (n >= 4 && !memcmp(b, "\x28\xb5\x2f\xfd", 4))
        return SB_INPUT_ZSTD;
    if (n >= 6 && !memcmp(b, "\xfd" "7zXZ\0", 6))
        return SB_INPUT_XZ;
    if (n >= 4 && !memcmp(b, "PK\x03\x04", 4))
        return SB_INPUT_ZIP;
    if (n >= 3 && !memcmp(b, "BZh", 3))
        return SB_INPUT_BZIP2;
    if (memchr(b, 0, n)) /* no text has one: UTF-16, an image, an executable */
        return SB_INPUT_BINARY;
    return SB_INPUT_TEXT;
}

const char *sb_input_kind_name(sb_input_kind k)
{
    switch (k) {
    case SB_INPUT_GZIP: return "gzip-compressed";
    case SB_INPUT_ZSTD: return "zstd-compressed";
    case SB_INPUT_XZ: return "xz-compressed";
    case SB_INPUT_ZIP: return "a zip archive";
    case SB_INPUT_BZIP2: return "bzip2-compressed";
    case SB_INPUT_BINARY: return "binary (a NUL byte)";
    default: return "text";
    }
}

const char *sb_input_kind_missing(sb_input_kind k)
{
    switch (k) {
#ifndef HAVE_ZLIB
    case SB_INPUT_GZIP: return "zlib";
#endif
#ifndef HAVE_ZSTD
    case SB_INPUT_ZSTD: return "libzstd";
#endif
#ifndef HAVE_LZMA
    case SB_INPUT_XZ: return "liblzma";
#endif
    default: return NULL;
    }
}

int sb_input_readable(sb_input_kind k)
{
    return k == SB_INPUT_TEXT ||
           ((k == SB_INPUT_GZIP || k == SB_INPUT_ZSTD || k == SB_INPUT_XZ) &&
            !sb_input_kind_missing(k));
}

const char *sb_input_strerror(int err)
{
    return err == EBADMSG ? "compressed data is truncated or corrupt" : strerror(err);
}

/* ---- the decompressing stream ---- */

typedef struct unpack {
    sb_input_kind kind;
    int fd;                   /* the compressed bytes' descriptor (-1: mem) */
    int own;                  /* fclose closes fd */
    long long at;             /* >= 0: read with pread from here (nothing consumed) */
    const unsigned char *src; /* compressed bytes not yet decoded */
    size_t src_len;
    int raw_eof;              /* no more compressed bytes */
    int done;                 /* every byte was handed out */
    int err;                  /* errno of a failure, handed out on every read after it */
    int ended;                /* the last member or frame ended (nothing pending in it) */
#ifdef HAVE_ZLIB
    z_stream z;
    int z_init;
#endif
#ifdef HAVE_ZSTD
    ZSTD_DStream *zs;
#endif
#ifdef HAVE_LZMA
    lzma_stream x;
    int x_init;
#endif
    unsigned char raw[];      /* RAW_BUF bytes for fd reads */
} unpack;

/* Reads more compressed bytes when none are pending. @return 0, or -1 (errno set). */
static int refill(unpack *u)
{
    if (u->src_len > 0 || u->raw_eof)
        return 0;
    if (u->fd < 0) {
        u->raw_eof = 1;
        return 0;
    }
    for (;;) {
        const ssize_t k = u->at >= 0 ? pread(u->fd, u->raw, RAW_BUF, (off_t)u->at)
                                     : read(u->fd, u->raw, RAW_BUF);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (u->at >= 0)
            u->at += k;
        u->src = u->raw;
        u->src_len = (size_t)k;
        u->raw_eof = k == 0;
        return 0;
    }
}

/* Decodes pending compressed bytes into buf (size bytes). @return the bytes made, or -1
 * (u->err set). */
static ssize_t decode(unpack *u, char *buf, size_t size)
{
    switch (u->kind) {
#ifdef HAVE_ZLIB
    case SB_INPUT_GZIP: {
        if (u->ended) { /* a member ended: another may follow (pigz, cat a.gz b.gz) */
            if (u->src_len == 0)
                return 0; /* refill first */
            if (u->src[0] != 0x1f || (u->src_len > 1 && u->src[1] != 0x8b)) {
                u->src_len = 0; /* what gzip -d calls trailing garbage: ignored as it does */
                u->raw_eof = u->done = 1;
                return 0;
            }
            inflateReset(&u->z);
            u->ended = 0;
        }
        u->z.next_in = (unsigned char *)u->src;
        u->z.avail_in = (uInt)(u->src_len > (1u << 30) ? (1u << 30) : u->src_len);
        const uInt in0 = u->z.avail_in;
        u->z.next_out = (unsigned char *)buf;
        u->z.avail_out = (uInt)(size > (1u << 30) ? (1u << 30) : size);
        const uInt out0 = u->z.avail_out;
        const int r = inflate(&u->z, Z_NO_FLUSH);
        u->src += in0 - u->z.avail_in;
        u->src_len -= in0 - u->z.avail_in;
        if (r == Z_STREAM_END)
            u->ended = 1;
        else if (r != Z_OK && r != Z_BUF_ERROR) {
            u->err = r == Z_MEM_ERROR ? ENOMEM : EBADMSG;
            return -1;
        }
        return (ssize_t)(out0 - u->z.avail_out);
    }
#endif
#ifdef HAVE_ZSTD
    case SB_INPUT_ZSTD: {
        ZSTD_inBuffer in = {u->src, u->src_len, 0};
        ZSTD_outBuffer out = {buf, size, 0};
        const size_t r = ZSTD_decompressStream(u->zs, &out, &in);
        u->src += in.pos;
        u->src_len -= in.pos;
        if (ZSTD_isError(r)) {
            u->err = EBADMSG;
            return -1;
        }
        u->ended = r == 0; /* a frame ended (the next one, if any, starts afresh) */
        return (ssize_t)out.pos;
    }
#endif
#ifdef HAVE_LZMA
    case SB_INPUT_XZ: {
        u->x.next_in = u->src;
        u->x.avail_in = u->src_len;
        u->x.next_out = (uint8_t *)buf;
        u->x.avail_out = size;
        const lzma_ret r = lzma_code(&u->x, u->raw_eof ? LZMA_FINISH : LZMA_RUN);
        const size_t used = u->src_len - u->x.avail_in;
        u->src += used;
        u->src_len -= used;
        if (r == LZMA_STREAM_END)
            u->ended = u->done = 1;
        else if (r != LZMA_OK && !(r == LZMA_BUF_ERROR && !u->raw_eof)) {
            u->err = r == LZMA_MEM_ERROR ? ENOMEM : EBADMSG;
            return -1;
        }
        return (ssize_t)(size - u->x.avail_out);
    }
#endif
    default: /* a kind unpack_open refuses: never here */
        (void)buf;
        (void)size;
        u->err = EINVAL;
        return -1;
    }
}

static ssize_t unpack_read(void *cookie, char *buf, size_t size)
{
    unpack *u = cookie;
    ssize_t got = 0;
    while (got == 0 && !u->done && !u->err && size > 0) {
        if (refill(u) != 0) {
            u->err = errno;
            break;
        }
        if (u->src_len == 0 && u->raw_eof) {
            /* the input ended: whole only once the last member or frame ended */
            if (u->ended && u->kind != SB_INPUT_XZ) {
                u->done = 1;
                break;
            }
            const ssize_t k = decode(u, buf, size); /* flushes what the decoder holds */
            if (k < 0)
                break;
            got = k;
            if (k == 0 && !u->ended)
                u->err = EBADMSG;
            else if (k == 0)
                u->done = 1;
            continue;
        }
        const ssize_t k = decode(u, buf, size);
        if (k < 0)
            break;
        got = k;
    }
    if (got == 0 && u->err) {
        errno = u->err;
        return -1;
    }
    return got;
}

static int unpack_close(void *cookie)
{
    unpack *u = cookie;
#ifdef HAVE_ZLIB
    if (u->z_init)
        inflateEnd(&u->z);
#endif
#ifdef HAVE_ZSTD
    ZSTD_freeDStream(u->zs);
#endif
#ifdef HAVE_LZMA
    if (u->x_init)
        lzma_end(&u->x);
#endif
    const int rc = u->own ? close(u->fd) : 0;
    free(u);
    return rc;
}

/* A stream decoding kind from fd (pread from at when at >= 0, else read) or from the n bytes
 * at mem (fd -1). @return it, or NULL (errno set: ENOTSUP for a kind this build cannot read). */
static FILE *unpack_open(sb_input_kind kind, int fd, long long at, int own,
                         const void *mem, size_t n)
{
    if (!sb_input_readable(kind) || kind == SB_INPUT_TEXT) {
        errno = ENOTSUP;
        return NULL;
    }
    unpack *u = calloc(1, sizeof *u + (fd >= 0 ? RAW_BUF : 0));
    if (!u) {
        errno = ENOMEM;
        return NULL;
    }
    u->kind = kind;
    u->fd = fd;
    u->at = at;
    if (fd < 0) {
        u->src = mem;
        u->src_len = n;
        u->raw_eof = 1;
    }
    int ok = 0;
    switch (kind) {
#ifdef HAVE_ZLIB
    case SB_INPUT_GZIP:
        ok = inflateInit2(&u->z, 15 + 16) == Z_OK; /* 16: gzip wrapper */
        u->z_init = ok;
        break;
#endif
#ifdef HAVE_ZSTD
    case SB_INPUT_ZSTD:
        ok = (u->zs = ZSTD_createDStream()) != NULL && !ZSTD_isError(ZSTD_initDStream(u->zs));
        break;
#endif
#ifdef HAVE_LZMA
    case SB_INPUT_XZ:
        u->x = (lzma_stream)LZMA_STREAM_INIT;
        ok = lzma_stream_decoder(&u->x, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
        u->x_init = ok;
        break;
#endif
    default:
        break;
    }
    cookie_io_functions_t io = {.read = unpack_read, .close = unpack_close};
    FILE *f = ok ? fopencookie(u, "rb", io) : NULL;
    if (!f) {
        u->own = 0;
        unpack_close(u);
        errno = ENOMEM;
        return NULL;
    }
    u->own = own;
    return f;
}

FILE *sb_unpack_fd(sb_input_kind kind, int fd, long long at, int own)
{
    if (fd < 0) {
        errno = EINVAL;
        return NULL;
    }
    return unpack_open(kind, fd, at, own, NULL, 0);
}

FILE *sb_unpack_mem(sb_input_kind kind, const void *p, size_t n)
{
    if (!p && n) {
        errno = EINVAL;
        return NULL;
    }
    return unpack_open(kind, -1, -1, 0, p ? p : "", n);
}
