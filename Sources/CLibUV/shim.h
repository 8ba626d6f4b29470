// libuv from Debian's libuv1-dev; the server's socket and loop are built on it.
#ifndef TRELLIS_CLIBUV_SHIM_H
#define TRELLIS_CLIBUV_SHIM_H
#include <uv.h>
#include <sys/socket.h>
#include <sys/types.h>

/// Linux's `struct ucred` layout. Glibc declares the struct only under _GNU_SOURCE, and
/// defining that here would change other system types seen by Swift's Glibc module.
struct trellis_ucred {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};

/// The uid of the process at the other end of a connected Unix socket (SO_PEERCRED), or -1.
static inline long long trellis_peer_uid(int fd) {
    struct trellis_ucred cred;
    socklen_t length = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) return -1;
    return (long long)cred.uid;
}
#endif
