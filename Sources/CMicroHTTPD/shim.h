#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

static inline uint16_t cmhd_bound_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return i ? i->port : 0;
}

/* MHD_start_daemon and MHD_get_daemon_info are C-variadic, which Swift cannot call.
   Poll mode with an internal thread pool: MHD's epoll loop stalls at 128 busy connections. */
/* Binds the given IPv4 or IPv6 address (e.g. "127.0.0.1", "0.0.0.0", "::1"; "::" takes IPv4 too,
   dual stack); NULL when the address does not parse or the daemon cannot start. With `key_pem`
   and `cert_pem` (PEM text, NUL-terminated) it serves HTTPS through MHD's GnuTLS, with the GnuTLS
   priority string `priorities` (versions, ciphers and their order); with NULL plain HTTP. */
static inline struct MHD_Daemon *cmhd_start_host(unsigned flags, const char *host, uint16_t port, unsigned pool,
        unsigned timeout_s, unsigned conn_limit, unsigned per_ip_limit, size_t conn_mem,
        const char *key_pem, const char *cert_pem, const char *priorities,
        MHD_AccessHandlerCallback h, void *h_cls, MHD_RequestCompletedCallback done, void *done_cls) {
    struct sockaddr_in a;
    struct sockaddr_in6 a6;
    memset(&a, 0, sizeof a);
    memset(&a6, 0, sizeof a6);
    void *bind_to = &a;
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons(port);
        if (inet_pton(AF_INET6, host, &a6.sin6_addr) != 1) return NULL;
        bind_to = &a6;
        flags |= IN6_IS_ADDR_UNSPECIFIED(&a6.sin6_addr) ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
    }
    struct MHD_OptionItem ops[] = {
        { MHD_OPTION_SOCK_ADDR, 0, bind_to },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)done, done_cls },
        { MHD_OPTION_CONNECTION_TIMEOUT, timeout_s, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, conn_limit, NULL },
        /* 0 = no per-IP limit (MHD's own default). */
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)conn_mem, NULL },
        { MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, NULL },
        { MHD_OPTION_END, 0, NULL }, { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL }, { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL }, { MHD_OPTION_END, 0, NULL } };
    /* The optional ones go after the fixed ones; the first MHD_OPTION_END ends the array. */
    size_t n = 7;
    if (pool > 1) { ops[n].option = MHD_OPTION_THREAD_POOL_SIZE; ops[n].value = pool; n++; }
    if (key_pem && cert_pem) {
        ops[n].option = MHD_OPTION_HTTPS_MEM_KEY; ops[n].ptr_value = (void *)key_pem; n++;
        ops[n].option = MHD_OPTION_HTTPS_MEM_CERT; ops[n].ptr_value = (void *)cert_pem; n++;
        if (priorities) { ops[n].option = MHD_OPTION_HTTPS_PRIORITIES; ops[n].ptr_value = (void *)priorities; n++; }
        flags |= MHD_USE_TLS;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, h, h_cls, MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

/* The client's address as text (IPv4 or IPv6) into `out` of `n` bytes; empty when unknown.
   MHD_get_connection_info is C-variadic, which Swift cannot call. */
static inline void cmhd_client_address(struct MHD_Connection *c, char *out, size_t n) {
    if (n == 0) return;
    out[0] = 0;
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!i || !i->client_addr) return;
    const struct sockaddr *sa = i->client_addr;
    if (sa->sa_family == AF_INET) inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)n);
    else if (sa->sa_family == AF_INET6) inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)n);
}
