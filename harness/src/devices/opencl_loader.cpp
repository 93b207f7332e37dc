// The OpenCL ICD loader (opencl_loader.h).
#include "devices/opencl_loader.h"

#include <dlfcn.h>

#include <initializer_list>

namespace harness {

namespace {

struct Loader {
    void *handle = nullptr;
    const char *name = nullptr;
};

const Loader &loader() {
    static const Loader l = [] {
        Loader found;
        for (const char *n : {"libOpenCL.so", "libOpenCL.so.1"}) {
            if (void *h = dlopen(n, RTLD_LAZY | RTLD_LOCAL)) {
                found.handle = h;
                found.name = n;
                break;
            }
        }
        return found;
    }();
    return l;
}

}  // namespace

const char *opencl_loader_name() {
    return loader().name;
}

void *opencl_symbol(const char *name) {
    return loader().handle ? dlsym(loader().handle, name) : nullptr;
}

}  // namespace harness
