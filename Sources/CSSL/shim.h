#include <errno.h>
#include <string.h>
#include <signal.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/* A client context that verifies peers against the system CAs (OpenSSL's default paths, which on
   Debian are /etc/ssl/certs) plus, when `extra_ca` is not NULL, the PEM certificates in that file.
   NULL with a reason in `err` on failure. SIGPIPE is ignored when it still has its default action:
   OpenSSL writes to the socket with write(), and a peer that closed must be an error, not a kill. */
static inline SSL_CTX *cssl_client_context(const char *const *extra_ca, int extra_count, char *err, size_t errlen) {
    struct sigaction old;
    if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) { snprintf(err, errlen, "cannot create a TLS context"); return NULL; }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    /* TLS 1.3 suites, AES-128-GCM first: on AES-NI it is about a quarter cheaper than AES-256-GCM
       per byte, and bulk transfers encrypt every fragment byte (docs/PERFORMANCE.md). All three
       stay offered; Mosaic's servers prefer AES-128-GCM themselves. */
    SSL_CTX_set_ciphersuites(ctx, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256");
    /* Read ahead into a buffer of several records: a bulk download then costs one read() per few
       records instead of two per record (its 5-byte header, then its body). Connections are
       blocking and never polled for readability, so bytes buffered here are not missed. */
    SSL_CTX_set_read_ahead(ctx, 1);
    SSL_CTX_set_default_read_buffer_len(ctx, 64 * 1024);
    /* A peer that closes without close_notify ends the stream (as a plain socket would), and the
       response framing (Content-Length, chunks) tells a cut body from a whole one. */
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_default_verify_paths(ctx);
    for (int i = 0; i < extra_count; i++) {
        if (SSL_CTX_load_verify_locations(ctx, extra_ca[i], NULL) != 1) {
            unsigned long e = ERR_get_error();
            char why[200];
            ERR_error_string_n(e, why, sizeof why);
            snprintf(err, errlen, "cannot load CA file %s: %s", extra_ca[i], why);
            SSL_CTX_free(ctx);
            return NULL;
        }
    }
    return ctx;
}

/* Runs the TLS handshake on the connected socket `fd` for `host` (a DNS name, checked against the
   certificate's names and sent as SNI, or an IP address, checked against its IP entries).
   NULL with a reason in `err` (the certificate verdict when verification failed). */
static inline SSL *cssl_connect(SSL_CTX *ctx, int fd, const char *host, int host_is_ip, char *err, size_t errlen) {
    SSL *ssl = SSL_new(ctx);
    if (!ssl) { snprintf(err, errlen, "cannot create a TLS session"); return NULL; }
    X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
    int named = host_is_ip ? X509_VERIFY_PARAM_set1_ip_asc(param, host) : X509_VERIFY_PARAM_set1_host(param, host, 0);
    if (!host_is_ip) SSL_set_tlsext_host_name(ssl, host);
    /* Reads come straight from the socket; writes go through a 256 KiB buffer that cssl_flush
       empties at the end of each request. A record is 16 KiB at most, and written straight to the
       socket each one cost a syscall and its own TCP push (TCP_NODELAY): a 1 MiB fragment PUT was
       64 small writes, where plain HTTP hands the kernel the whole MiB at once. */
    BIO *sock = named == 1 ? BIO_new_socket(fd, BIO_NOCLOSE) : NULL;
    BIO *buffer = sock ? BIO_new(BIO_f_buffer()) : NULL;
    if (!buffer || BIO_set_write_buffer_size(buffer, 256 * 1024) != 1) {
        BIO_free(buffer);
        BIO_free(sock);
        snprintf(err, errlen, "cannot set up TLS for %s", host);
        SSL_free(ssl);
        return NULL;
    }
    BIO_push(buffer, sock);
    BIO_up_ref(sock); /* one reference for the read side, one for the write chain */
    SSL_set0_rbio(ssl, sock);
    SSL_set0_wbio(ssl, buffer);
    ERR_clear_error();
    if (SSL_connect(ssl) != 1) {
        long v = SSL_get_verify_result(ssl);
        if (v != X509_V_OK) {
            snprintf(err, errlen, "certificate rejected: %s", X509_verify_cert_error_string(v));
        } else {
            unsigned long e = ERR_get_error();
            char why[200] = "the peer closed the connection";
            if (e) ERR_error_string_n(e, why, sizeof why);
            snprintf(err, errlen, "TLS handshake failed: %s", why);
        }
        SSL_free(ssl);
        return NULL;
    }
    return ssl;
}

/* Sends what cssl_connect's write buffer holds (the end of a request): 1 when all of it left, 0
   with errno set (EAGAIN when the socket's send timeout passed, else the socket's error). */
static inline int cssl_flush(SSL *ssl) {
    BIO *w = SSL_get_wbio(ssl);
    errno = 0;
    if (BIO_flush(w) == 1) return 1;
    if (errno == 0) errno = BIO_should_retry(w) ? EAGAIN : ECONNRESET;
    return 0;
}

/* SSL_get_error's verdicts, as ints Swift can compare without the macros. */
static inline int cssl_error_want(SSL *ssl, int rc) {
    int e = SSL_get_error(ssl, rc);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return 1; /* the socket timed out */
    if (e == SSL_ERROR_ZERO_RETURN) return 2;                           /* clean close */
    if (e == SSL_ERROR_SYSCALL) return 3;                               /* errno says why */
    return 0;                                                           /* a TLS protocol error */
}
