/*
 * tls.c: tablero --tls: the connection wrapped in TLS (OpenSSL through
 * libevent's bufferevent_openssl). The server's certificate is verified
 * against the system's store and its name (or address) checked; with
 * --tls-pin FILE the certificate in FILE (a self-signed one, say) is the
 * only one trusted, whatever name it carries.
 */
#include <arpa/inet.h>
#include <string.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "client-cli/client.h"

/* The context, made once: TLS 1.2 at least, the peer verified. NULL with
 * why filled in. */
static SSL_CTX *
tls_ctx(const struct client_opts *o, char *why, size_t len)
{
	static SSL_CTX *ctx;
	int ok;

	if (ctx != NULL)
		return ctx;
	ctx = SSL_CTX_new(TLS_client_method());
	if (ctx == NULL) {
		snprintf(why, len, "cannot make a TLS context");
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	if (o->tls_pin[0] != '\0') {
		/* The pinned certificate is the trust anchor itself. */
		ok = SSL_CTX_load_verify_locations(ctx, o->tls_pin, NULL) == 1;
		X509_VERIFY_PARAM_set_flags(
		    SSL_CTX_get0_param(ctx), X509_V_FLAG_PARTIAL_CHAIN);
	} else
		ok = SSL_CTX_set_default_verify_paths(ctx) == 1;
	if (!ok) {
		snprintf(why, len, "cannot read the certificates %s",
		    o->tls_pin[0] != '\0' ? o->tls_pin : "of the system");
		SSL_CTX_free(ctx);
		ctx = NULL;
	}
	return ctx;
}

/* Wrap bev (a socket being connected) in TLS for host; the new
 * bufferevent owns bev. NULL with why filled in. */
struct bufferevent *
tls_wrap(struct client *c, struct bufferevent *bev, char *why, size_t len)
{
	const struct client_opts *o = &c->opts;
	SSL_CTX *ctx = tls_ctx(o, why, len);
	unsigned char addr[16];
	struct bufferevent *t;
	SSL *ssl;

	if (ctx == NULL || (ssl = SSL_new(ctx)) == NULL)
		return NULL;
	if (o->tls_pin[0] == '\0') {
		/* the name (or address) the user typed must be the
		 * certificate's */
		if (inet_pton(AF_INET, o->host, addr) == 1 ||
		    inet_pton(AF_INET6, o->host, addr) == 1)
			X509_VERIFY_PARAM_set1_ip_asc(
			    SSL_get0_param(ssl), o->host);
		else {
			SSL_set_tlsext_host_name(ssl, o->host);
			SSL_set1_host(ssl, o->host);
		}
	}
	t = bufferevent_openssl_filter_new(c->base, bev, ssl,
	    BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
	if (t == NULL) {
		SSL_free(ssl);
		snprintf(why, len, "cannot start TLS");
		return NULL;
	}
	bufferevent_openssl_set_allow_dirty_shutdown(t, 1);
	return t;
}

/* Why a TLS connection failed, in words (static), or NULL when TLS said
 * nothing. */
const char *
tls_why(struct bufferevent *bev)
{
	static char buf[256];
	unsigned long e = bufferevent_get_openssl_error(bev);
	SSL *ssl = bufferevent_openssl_get_ssl(bev);
	long v = ssl != NULL ? SSL_get_verify_result(ssl) : X509_V_OK;

	if (v != X509_V_OK) {
		snprintf(buf, sizeof buf,
		    "the server's certificate is refused: %s",
		    X509_verify_cert_error_string(v));
		return buf;
	}
	if (e == 0)
		return NULL;
	snprintf(buf, sizeof buf, "TLS: %s", ERR_reason_error_string(e));
	return buf;
}
