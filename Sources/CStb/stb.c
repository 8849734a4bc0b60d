#include "cstb.h"
