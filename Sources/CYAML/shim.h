// Debian's libyaml (libyaml-dev), for the account files of twurl and t.
#include <yaml.h>
