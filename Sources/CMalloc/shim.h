// glibc's allocator controls (malloc.h), which Swift's Glibc module leaves out.
#include <malloc.h>
