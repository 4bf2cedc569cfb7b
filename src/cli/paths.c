/*
 * paths.c — the one rule for the paths of a run: nothing a run writes may be something it
 * reads. Every command asks here, before it opens anything for writing, with the files it
 * will write (-o FILE, standard output when that is a regular file, --json, side files) and
 * the files it reads (puzzle files or standard input, --geometry FILE). A file opened for
 * writing is truncated, appended to or renamed over, so a clash would destroy the input or
 * feed the run its own output without end (`solve F >> F`); it is refused before any byte is
 * touched.
 *
 * Two files are the same when they have the same device and inode (which catches ./F, hard
 * links, symbolic links and /dev/fd/N), or when their names resolve to the same absolute name
 * (which catches an output that does not exist yet but will be given that name).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Writes all n bytes to fd, retrying after signals and on non-blocking descriptors (a
 * terminal shared with a program that set O_NONBLOCK). @return 0, or -1 with errno set. */
int cli_write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        const ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd pf = {.fd = fd, .events = POLLOUT};
                poll(&pf, 1, -1);
                continue;
            }
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

#define STDOUT_ROLE "standard output"

/* The absolute name path has or will get: realpath() of path when it exists, else of its
 * directory with the last component appended. @return a malloc'd name, or NULL when neither
 * resolves (then only device and inode can tell). */
static char *resolved_name(const char *path)
{
    char *full = realpath(path, NULL);
    if (full || errno != ENOENT)
        return full;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    char *dfull = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    if (!dfull || !*base)
        return free(dfull), NULL;
    const size_t n = strlen(dfull) + strlen(base) + 2;
    full = malloc(n);
    if (full)
        snprintf(full, n, "%s%s%s", dfull, dfull[1] ? "/" : "", base);
    free(dfull);
    return full;
}

/* One file of the run as the check sees it. */
typedef struct {
    const char *shown; /* as messages name it */
    const char *role;  /* "-o", "--json", "standard output", "input", ... */
    struct stat st;
    int have_st;       /* st is valid: the file exists */
    int regular;       /* a regular file: only those lose bytes when written */
    char *name;        /* resolved_name, or NULL */
} node;

/* Fills n for path (NULL: the descriptor fd, shown as shown). */
static void node_init(node *n, const char *path, int fd, const char *shown, const char *role)
{
    memset(n, 0, sizeof *n);
    n->shown = shown ? shown : path;
    n->role = role;
    n->have_st = (path ? stat(path, &n->st) : fstat(fd, &n->st)) == 0;
    n->regular = n->have_st && S_ISREG(n->st.st_mode);
    n->name = path && strcmp(path, "-") ? resolved_name(path) : NULL;
}

/* @return 1 when writing w may change the bytes of r. */
static int clash(const node *w, const node *r)
{
    if (w->have_st) {
        /* A terminal, /dev/null or a pipe may be read and written at once; a regular file
         * read and written loses its bytes. */
        return w->regular && r->have_st && w->st.st_dev == r->st.st_dev &&
               w->st.st_ino == r->st.st_ino;
    }
    return w->name && r->name && !strcmp(w->name, r->name);
}

int cli_paths_refuse(const char *cmd, const cli_write *writes, int nwrites, char *const *files,
                     int nfiles, const char *extra)
{
    if (files)
        cli_inputs(&files, &nfiles);
    /* the loaded plug-ins are inputs too: a shared object overwritten mid-run would crash it */
    const int nplug = cli_plugin_count();
    const int nfixed = (files ? nfiles : 0) + (extra != NULL);
    const int nreads = nfixed + nplug;
    node *r = calloc((size_t)nreads + 1, sizeof *r), *w = calloc((size_t)nwrites + 1, sizeof *w);
    if (!r || !w) {
        free(r);
        free(w);
        return cli_oom();
    }
    for (int i = nfixed; i < nreads; i++)
        node_init(&r[i], cli_plugin_path(i - nfixed), -1, NULL, "--plugin");
    for (int i = 0; i < nfixed; i++) {
        const char *p = files && i < nfiles ? files[i] : extra;
        const int is_stdin = files && i < nfiles && !strcmp(p, "-");
        node_init(&r[i], is_stdin ? NULL : p, STDIN_FILENO, is_stdin ? "<stdin>" : p,
                  "input");
    }
    for (int i = 0; i < nwrites; i++)
        node_init(&w[i], writes[i].path, STDOUT_FILENO,
                  writes[i].path ? writes[i].path : "<stdout>",
                  writes[i].path ? writes[i].opt : STDOUT_ROLE);
    int rc = 0;
    const node *bad_w = NULL, *bad_r = NULL;
    for (int i = 0; i < nwrites && !bad_w; i++) {
        for (int j = 0; j < nreads && !bad_w; j++)
            if (clash(&w[i], &r[j]))
                bad_w = &w[i], bad_r = &r[j];
        /* two outputs in one file: the later one's bytes would overwrite the earlier's */
        for (int j = 0; j < i && !bad_w; j++)
            if (clash(&w[i], &w[j]) || clash(&w[j], &w[i]))
                bad_w = &w[i], bad_r = &w[j];
    }
    if (bad_w) {
        /* names as messages show them: a control byte cannot split the line */
        char *wm = cli_msg_dup(bad_w->shown), *rm = cli_msg_dup(bad_r->shown);
        const char *ws = wm ? wm : bad_w->shown, *rs = rm ? rm : bad_r->shown;
        char what[64]; /* what bad_r is to the run */
        if (bad_r >= r && bad_r < r + nreads)
            snprintf(what, sizeof what, "%s", bad_r->role);
        else if (!strcmp(bad_r->role, STDOUT_ROLE))
            snprintf(what, sizeof what, "file of " STDOUT_ROLE);
        else
            snprintf(what, sizeof what, "output of %s", bad_r->role);
        if (!strcmp(bad_w->role, STDOUT_ROLE))
            rc = cli_usage_error(cmd, STDOUT_ROLE " is the %s '%s': an input is never "
                                      "written to",
                                 what, rs);
        else
            rc = cli_usage_error(cmd, "cannot open '%s' for %s: it is also the %s '%s'", ws,
                                 bad_w->role, what, rs);
        free(wm);
        free(rm);
    }
    for (int i = 0; i < nreads; i++)
        free(r[i].name);
    for (int i = 0; i < nwrites; i++)
        free(w[i].name);
    free(r);
    free(w);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Whole or absent                                                                            */
/* ------------------------------------------------------------------------------------------ */

int cli_whole_open(cli_whole *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    /* Through a symbolic link the file it names is replaced, as a plain write would; a
     * dangling link or a new name is created as given. */
    struct stat st;
    char *target = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(path, NULL) : NULL;
    o->path = target ? target : strdup(path);
    if (!o->path)
        return errno = ENOMEM, -1;
    const int exists = stat(o->path, &st) == 0;
    /* An existing file this user may not write stays refused, as opening it would be. */
    if (exists && access(o->path, W_OK) != 0)
        goto fail;
    if (exists && !S_ISREG(st.st_mode)) {
        /* A device, a FIFO or a terminal (/dev/stdout, /dev/null) is written as it is: it
         * holds no bytes a torn write could spoil, and renaming over it would replace the
         * device itself. */
        if ((o->fd = open(o->path, O_WRONLY | O_CLOEXEC)) < 0 ||
            !(o->f = open_memstream(&o->data, &o->len))) {
            const int e = errno;
            cli_whole_abort(o);
            errno = e;
            return -1;
        }
        return 0;
    }
    const size_t n = strlen(o->path) + sizeof ".XXXXXX.tmp";
    if (!(o->tmp = malloc(n)))
        goto fail;
    snprintf(o->tmp, n, "%s.XXXXXX.tmp", o->path);
    /* Made now, so that a path that cannot be written fails before the run, not after it;
     * a new name (O_EXCL), so never one of the inputs. */
    if ((o->fd = mkstemps(o->tmp, 4)) < 0) {
        free(o->tmp), o->tmp = NULL;
        goto fail;
    }
    mode_t mode = exists ? st.st_mode & 07777 : 0;
    if (!exists) { /* what open(path, O_CREAT, 0666) would have given it */
        const mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(o->fd, mode) != 0 || !(o->f = open_memstream(&o->data, &o->len))) {
        const int e = errno;
        cli_whole_abort(o);
        errno = e;
        return -1;
    }
    return 0;
fail:;
    const int e = errno;
    free(o->path), o->path = NULL;
    errno = e;
    return -1;
}

int cli_whole_commit(cli_whole *o)
{
    int ok = o->f && fclose(o->f) == 0; /* the bytes are in memory: o->data, o->len */
    o->f = NULL;
    ok = ok && cli_write_all(o->fd, o->data, o->len) == 0; /* write(2): the shim sees it */
    ok = ok && (!o->tmp || fsync(o->fd) == 0);
    int e = ok ? 0 : errno;
    if (close(o->fd) != 0 && ok)
        ok = 0, e = errno;
    o->fd = -1;
    if (ok && o->tmp && rename(o->tmp, o->path) != 0)
        ok = 0, e = errno;
    if (!ok && o->tmp)
        unlink(o->tmp); /* nothing torn is left behind */
    free(o->tmp), o->tmp = NULL;
    free(o->path), o->path = NULL;
    free(o->data), o->data = NULL;
    errno = e;
    return ok ? 0 : -1;
}

void cli_whole_abort(cli_whole *o)
{
    if (o->f)
        fclose(o->f);
    if (o->fd >= 0)
        close(o->fd);
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    free(o->data);
    memset(o, 0, sizeof *o);
    o->fd = -1;
}
