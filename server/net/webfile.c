/*
 * webfile.c: the browser client's files in memory, for the web port
 * (web.c): the copy built into tablerod (webfile_builtin, made from web/
 * by contrib/embed-web.sh), or with --web-dir the files of that folder,
 * read once at start. Each file has its Content-Type, an ETag (a hash of
 * its bytes) and, where it is smaller, a gzip copy with an ETag of its
 * own (built in, or FILE.gz beside FILE in --web-dir). A response refers
 * to these bytes: serving a file opens no descriptor and copies nothing,
 * so a connection holds at most its socket and one response.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "server/net/net.h"

/* Files read from --web-dir at most: the page has nine. */
#define WEBFILE_MAX 256
/* Their bytes together at most (gzip copies included): the page has 63
 * KB; this bounds what a --web-dir naming a big folder by mistake costs. */
#define WEBFILE_BYTES_MAX (16 * 1024 * 1024)
/* Folders below --web-dir that are read: the page uses one (js/). */
#define WEBFILE_DEPTH 4
/* The longest path of a file under --web-dir: shorter than the longest
 * URL the web port takes (web.c's WEB_URL_MAX). */
#define WEBFILE_PATH_MAX 200
/* Bytes of the hash in an ETag (16 hex digits): tells versions apart. */
#define WEBFILE_TAG_BYTES 8

struct webfiles {
	struct webfile *v; /* sorted by path */
	int n, cap;
	size_t bytes;
};

/* The Content-Type for a file's name; NULL: not served. */
static const char *
webfile_type(const char *path)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
	    {".html", "text/html; charset=utf-8"},
	    {".js", "text/javascript; charset=utf-8"},
	    {".mjs", "text/javascript; charset=utf-8"},
	    {".css", "text/css; charset=utf-8"},
	    {".svg", "image/svg+xml"},
	    {".png", "image/png"},
	    {".json", "application/json"},
	    {".ico", "image/x-icon"},
	    {".webmanifest", "application/manifest+json"},
	    /* the page's rules (js/rules.wasm): compiled as it streams in
	     * only with this type */
	    {".wasm", "application/wasm"},
	};
	const char *dot = strrchr(path, '.');
	size_t i;

	if (dot == NULL || strchr(dot, '/') != NULL)
		return NULL;
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(dot, types[i].ext) == 0)
			return types[i].type;
	return NULL;
}

/* The ETag of len bytes: a quoted hash. */
static void
webfile_etag(const unsigned char *data, size_t len, char *out)
{
	unsigned char h[WEBFILE_TAG_BYTES];

	crypto_generichash(h, sizeof h, data, len, NULL, 0);
	out[0] = '"';
	sodium_bin2hex(out + 1, 2 * sizeof h + 1, h, sizeof h);
	strcat(out, "\"");
}

/* Add a file (path under the web root, with its leading '/'); a gzip
 * copy is kept only when smaller. */
static void
webfile_add(struct webfiles *f, const char *path, const char *type,
    const unsigned char *data, size_t len, const unsigned char *gz,
    size_t gzlen, int owned)
{
	struct webfile *w;

	f->v = xgrow(f->v, f->n, &f->cap, 16, sizeof *f->v);
	w = &f->v[f->n++];
	memset(w, 0, sizeof *w);
	w->path = xstrdup(path);
	w->type = type;
	w->data = data;
	w->len = len;
	w->owned = owned;
	webfile_etag(data, len, w->etag);
	if (gz != NULL && gzlen < len) {
		w->gz = gz;
		w->gzlen = gzlen;
		webfile_etag(gz, gzlen, w->gzetag);
	} else if (owned && gz != NULL) {
		free((void *)gz);
	}
}

static int
webfile_cmp(const void *a, const void *b)
{
	return strcmp(((const struct webfile *)a)->path,
	    ((const struct webfile *)b)->path);
}

/* Read a whole regular file of at most max bytes into *out (malloc'd).
 * 0; 1 when it is missing or no regular file; -1 with errno (EFBIG:
 * larger than max). */
static int
webfile_read(const char *full, size_t max, unsigned char **out, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	size_t have = 0;
	int fd = open(full, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 1 : -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 1;
	}
	if ((size_t)st.st_size > max) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (have < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + have, (size_t)st.st_size - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	close(fd);
	*out = buf;
	*len = have;
	return 0;
}

/* Read the files under dir/rel (rel "" at the top, else "/js"...) into
 * f. 0, or -1 with the reason in err. */
static int
webfile_walk(struct webfiles *f, const char *dir, const char *rel, int depth,
    char *err, size_t errlen)
{
	char here[PATH_MAX], full[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	snprintf(here, sizeof here, "%s%s", dir, rel);
	if ((d = opendir(here)) == NULL) {
		snprintf(
		    err, errlen, "--web-dir %s: %s", here, strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char path[WEBFILE_PATH_MAX + 1];
		unsigned char *data, *gz = NULL;
		size_t len, gzlen = 0;
		struct stat st;
		const char *type;
		int r;

		/* hidden files, and web/tests/ (the browser tests and their
		 * driver, not the page) */
		if (e->d_name[0] == '.' ||
		    (depth == 0 && strcmp(e->d_name, "tests") == 0))
			continue;
		if (snprintf(path, sizeof path, "%s/%s", rel, e->d_name) >=
		        (int)sizeof path ||
		    snprintf(full, sizeof full, "%s%s", dir, path) >=
		        (int)sizeof full - 3)
			continue;
		if (stat(full, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth + 1 < WEBFILE_DEPTH)
				rc = webfile_walk(
				    f, dir, path, depth + 1, err, errlen);
			continue;
		}
		if ((type = webfile_type(path)) == NULL)
			continue;
		if (f->n == WEBFILE_MAX) {
			snprintf(err, errlen,
			    "--web-dir %s: more than %d files", dir,
			    WEBFILE_MAX);
			rc = -1;
			break;
		}
		r = webfile_read(
		    full, WEBFILE_BYTES_MAX - f->bytes, &data, &len);
		if (r == 1)
			continue;
		if (r < 0) {
			if (errno == EFBIG)
				snprintf(err, errlen,
				    "--web-dir %s: its files hold more than %d "
				    "bytes together",
				    dir, WEBFILE_BYTES_MAX);
			else
				snprintf(err, errlen, "--web-dir %s: %s: %s",
				    dir, path, strerror(errno));
			rc = -1;
			break;
		}
		f->bytes += len;
		snprintf(full, sizeof full, "%s%s.gz", dir, path);
		r = webfile_read(
		    full, WEBFILE_BYTES_MAX - f->bytes, &gz, &gzlen);
		if (r == 0)
			f->bytes += gzlen;
		else
			gz = NULL;
		webfile_add(f, path, type, data, len, gz, gzlen, 1);
	}
	closedir(d);
	return rc;
}

/* The files to serve: the built-in copy (dir NULL) or dir's, read now.
 * NULL with the reason in err. */
struct webfiles *
webfile_load(const char *dir, char *err, size_t errlen)
{
	struct webfiles *f = xcalloc(1, sizeof *f);
	int i;

	if (dir == NULL) {
		for (i = 0; webfile_builtin[i].path != NULL; i++) {
			const struct webfile_builtin *b = &webfile_builtin[i];

			webfile_add(f, b->path, webfile_type(b->path), b->data,
			    b->len, b->gz, b->gzlen, 0);
		}
	} else if (webfile_walk(f, dir, "", 0, err, errlen) != 0) {
		webfile_free(f);
		return NULL;
	}
	qsort(f->v, (size_t)f->n, sizeof *f->v, webfile_cmp);
	return f;
}

/* The file at a URL's path ("/js/app.js"), or NULL. */
const struct webfile *
webfile_find(const struct webfiles *f, const char *path)
{
	struct webfile key;

	if (f == NULL || f->n == 0)
		return NULL;
	key.path = (char *)path;
	return bsearch(&key, f->v, (size_t)f->n, sizeof *f->v, webfile_cmp);
}

/* How many files, and their bytes (gzip copies included). */
int
webfile_count(const struct webfiles *f, size_t *bytes)
{
	size_t n = 0;
	int i;

	for (i = 0; i < f->n; i++)
		n += f->v[i].len + f->v[i].gzlen;
	*bytes = n;
	return f->n;
}

void
webfile_free(struct webfiles *f)
{
	int i;

	if (f == NULL)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->v[i].path);
		if (f->v[i].owned) {
			free((void *)f->v[i].data);
			free((void *)f->v[i].gz);
		}
	}
	free(f->v);
	free(f);
}
