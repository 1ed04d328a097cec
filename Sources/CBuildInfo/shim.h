// The commit a binary was built from: `make release` passes -Xcc -DLINNET_COMMIT="<hash>";
// other builds say "unknown". A macro, so no file in the tree changes per commit.
#ifndef LINNET_CBUILDINFO_H
#define LINNET_CBUILDINFO_H
#ifndef LINNET_COMMIT
#define LINNET_COMMIT "unknown"
#endif
static inline const char *linnet_build_commit(void) { return LINNET_COMMIT; }
#endif
