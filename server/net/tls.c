/*
 * tls.c: TLS for the --tls-port (OpenSSL through libevent's
 * bufferevent_openssl): the context from --tls-cert and --tls-key, and a
 * TLS bufferevent for each accepted socket. What runs inside is web.c's
 * business, as on the plain web port.
 */
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

#include "server/net/net.h"
#include "server/net/limit.h"

/* Log OpenSSL's reason for a failure. */
static void
tls_log(const char *what, const char *path)
{
	char buf[256];

	ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
	log_error("tls: %s %s: %s", what, path, buf);
}

/* A server context for the certificate chain and key in PEM files, TLS
 * 1.2 at least; NULL with the reason logged. */
SSL_CTX *
tls_server_ctx(const char *cert, const char *key)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());

	if (ctx == NULL)
		fatal("out of memory making a TLS context");
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
		tls_log("cannot use the certificate", cert);
		SSL_CTX_free(ctx);
		return NULL;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 ||
	    SSL_CTX_check_private_key(ctx) != 1) {
		tls_log("cannot use the key", key);
		SSL_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/* A TLS bufferevent accepting on fd; NULL (fd closed) when out of
 * memory. The handshake runs under the caller's read timeout. */
struct bufferevent *
tls_accept(struct server *srv, SSL_CTX *ctx, evutil_socket_t fd)
{
	SSL *ssl = SSL_new(ctx);
	struct bufferevent *bev;

	if (ssl == NULL) {
		evutil_closesocket(fd);
		return NULL;
	}
	bev = bufferevent_openssl_socket_new(srv->base, fd, ssl,
	    BUFFEREVENT_SSL_ACCEPTING,
	    BEV_OPT_CLOSE_ON_FREE | BEV_OPT_DEFER_CALLBACKS);
	if (bev == NULL) {
		SSL_free(ssl);
		evutil_closesocket(fd);
		return NULL;
	}
	/* A peer that closes without close_notify ends the stream, as a
	 * TCP peer does. */
	bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
	return bev;
}

void
tls_free(SSL_CTX *ctx)
{
	if (ctx != NULL)
		SSL_CTX_free(ctx);
}
