/* The glibc extensions ChildProcess needs. Swift's Glibc module is built without _GNU_SOURCE,
   so these are declared here (glibc 2.34 has all three). */
#ifndef LINNET_CSPAWN_SHIM_H
#define LINNET_CSPAWN_SHIM_H
#include <spawn.h>

extern int pipe2(int pipefd[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
#endif
