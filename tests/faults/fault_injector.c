/* An LD_PRELOAD shim for the fault-injection tests (tests/faults_test.cpp): makes the Nth
 * write(2) or fsync(2) of the process it is loaded into fail, or come out short, as a full
 * disk, an interrupted call or a slow pipe would. Configured by the environment:
 *
 *   SNNPLAN_FAULT_CALL   write | fsync            which call to fault
 *   SNNPLAN_FAULT_AT     N (1-based)              the call that is faulted, counting only
 *                                                 calls on file descriptors other than 2
 *                                                 (stderr must keep working to say why)
 *   SNNPLAN_FAULT_KIND   ENOSPC | EIO | EINTR | short
 *                        an errno to fail with, or "short": write half of what was asked
 *   SNNPLAN_FAULT_EVERY  1: fault every call from the Nth on, not only the Nth
 *
 * Only the faulted calls are changed; every other call goes to the real function. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long calls;

static int faulted(const char* call) {
  const char* which = getenv("SNNPLAN_FAULT_CALL");
  const char* at = getenv("SNNPLAN_FAULT_AT");
  if (!which || !at || strcmp(which, call) != 0) return 0;
  const long n = ++calls;
  const long target = atol(at);
  const char* every = getenv("SNNPLAN_FAULT_EVERY");
  return every && strcmp(every, "1") == 0 ? n >= target : n == target;
}

static int fault_errno(void) {
  const char* kind = getenv("SNNPLAN_FAULT_KIND");
  if (!kind || strcmp(kind, "ENOSPC") == 0) return ENOSPC;
  if (strcmp(kind, "EIO") == 0) return EIO;
  if (strcmp(kind, "EINTR") == 0) return EINTR;
  return 0; /* "short" */
}

ssize_t write(int fd, const void* data, size_t size) {
  static ssize_t (*real_write)(int, const void*, size_t);
  /* POSIX's way of taking a function from dlsym (C forbids the direct cast). */
  if (!real_write) *(void**)(&real_write) = dlsym(RTLD_NEXT, "write");
  if (fd != 2 && size > 0 && faulted("write")) {
    const int error = fault_errno();
    if (error == 0) return real_write(fd, data, size > 1 ? size / 2 : size);
    errno = error;
    return -1;
  }
  return real_write(fd, data, size);
}

int fsync(int fd) {
  static int (*real_fsync)(int);
  if (!real_fsync) *(void**)(&real_fsync) = dlsym(RTLD_NEXT, "fsync");
  if (faulted("fsync")) {
    errno = fault_errno() ? fault_errno() : EIO;
    return -1;
  }
  return real_fsync(fd);
}
