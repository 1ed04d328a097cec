/* A pseudo-terminal for the TUI benchmark: fork a child on a pty of a given size and exec. */
#ifndef LINNET_CPTY_SHIM_H
#define LINNET_CPTY_SHIM_H
#include <pty.h>
#include <unistd.h>
#include <sys/ioctl.h>
/* Returns the child's pid (or -1); *master is the parent's end. The child execs argv[0]. */
static inline int cpty_spawn(int *master, int rows, int cols, char *const argv[]) {
    struct winsize ws = { (unsigned short)rows, (unsigned short)cols, 0, 0 };
    int pid = forkpty(master, NULL, NULL, &ws);
    if (pid == 0) { execv(argv[0], argv); _exit(127); }
    return pid;
}
/* The same with an environment of the caller's (envp ends with NULL). */
static inline int cpty_spawn_env(int *master, int rows, int cols, char *const argv[], char *const envp[]) {
    struct winsize ws = { (unsigned short)rows, (unsigned short)cols, 0, 0 };
    int pid = forkpty(master, NULL, NULL, &ws);
    if (pid == 0) { execve(argv[0], argv, envp); _exit(127); }
    return pid;
}
#endif
