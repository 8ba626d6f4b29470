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

/// tee(2) and splice(2) under their own names, bound to glibc's symbols: Glibc declares them
/// only under _GNU_SOURCE (see above). Frames reach many viewers as references to one pipe's
/// pages instead of a copy per viewer.
ssize_t trellis_tee(int fd_in, int fd_out, size_t length, unsigned int flags) __asm__("tee");
ssize_t trellis_splice(int fd_in, void *off_in, int fd_out, void *off_out, size_t length, unsigned int flags) __asm__("splice");
static const unsigned int TRELLIS_SPLICE_F_MOVE = 1;
static const unsigned int TRELLIS_SPLICE_F_NONBLOCK = 2;
/// fcntl's F_SETPIPE_SZ and F_GETPIPE_SZ (Linux, F_LINUX_SPECIFIC_BASE + 7 and + 8).
static const int TRELLIS_F_SETPIPE_SZ = 1031;
static const int TRELLIS_F_GETPIPE_SZ = 1032;
#endif
