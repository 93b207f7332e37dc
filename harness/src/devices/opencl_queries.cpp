// The device and kernel queries of the OpenCL interposer (opencl_interpose.h): answered with the active device
// personality's values, and the reading of a program's source for what the personality lacks (fp64).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <type_traits>

#include "devices/device_personality.h"
#include "devices/opencl_interpose.h"
#include "devices/opencl_loader.h"

namespace harness {

namespace cl_shim {

const Real &real() {
    static const Real r = [] {
        Real x;
        const auto get = [](auto &fn, const char *name) {
            fn = reinterpret_cast<std::decay_t<decltype(fn)>>(opencl_symbol(name));
        };
        get(x.get_device_info, "clGetDeviceInfo");
        get(x.kernel_work_group_info, "clGetKernelWorkGroupInfo");
        get(x.create_queue, "clCreateCommandQueue");
        get(x.create_queue_with_properties, "clCreateCommandQueueWithProperties");
        get(x.create_program, "clCreateProgramWithSource");
        get(x.build_program, "clBuildProgram");
        get(x.program_build_info, "clGetProgramBuildInfo");
        get(x.release_program, "clReleaseProgram");
        get(x.program_info, "clGetProgramInfo");
        get(x.create_kernel, "clCreateKernel");
        get(x.release_kernel, "clReleaseKernel");
        get(x.kernel_info, "clGetKernelInfo");
        get(x.set_kernel_arg, "clSetKernelArg");
        get(x.enqueue, "clEnqueueNDRangeKernel");
        get(x.queue_info, "clGetCommandQueueInfo");
        get(x.wait_for_events, "clWaitForEvents");
        get(x.event_profiling_info, "clGetEventProfilingInfo");
        get(x.release_event, "clReleaseEvent");
        get(x.retain_event, "clRetainEvent");
        return x;
    }();
    return r;
}

cl_int answer_info(const void *data, size_t n, size_t size, void *value, size_t *size_ret) {
    if (size_ret) *size_ret = n;
    if (value) {
        if (size < n) return CL_INVALID_VALUE;
        std::memcpy(value, data, n);
    }
    return CL_SUCCESS;
}

namespace {

std::string without_word(const std::string &list, const std::string &word) {
    std::string out, w;
    for (size_t i = 0; i <= list.size(); i++) {
        if (i == list.size() || list[i] == ' ') {
            if (!w.empty() && w != word) out += (out.empty() ? "" : " ") + w;
            w.clear();
        } else {
            w += list[i];
        }
    }
    return out;
}

bool is_ident(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool has_word(const std::string &text, size_t from, size_t to, const char *word) {
    const size_t n = std::strlen(word);
    for (size_t at = text.find(word, from); at != std::string::npos && at + n <= to; at = text.find(word, at + 1)) {
        if ((at == 0 || !is_ident(text[at - 1])) && (at + n >= text.size() || !is_ident(text[at + n]))) return true;
    }
    return false;
}

}  // namespace

std::string kernels_using_double(const std::string &src) {
    if (!has_word(src, 0, src.size(), "double")) return "";
    std::string names;
    for (size_t k = src.find("__kernel"); k != std::string::npos;) {
        const size_t next = src.find("__kernel", k + 1);
        const size_t paren = src.find('(', k);
        size_t end = paren;
        while (end > k && !is_ident(src[end - 1]))
            end--;
        size_t begin = end;
        while (begin > k && is_ident(src[begin - 1]))
            begin--;
        if (has_word(src, k, next == std::string::npos ? src.size() : next, "double")) {
            names += (names.empty() ? "'" : ", '") + src.substr(begin, end - begin) + "'";
        }
        k = next;
    }
    return names.empty() ? "(outside any kernel)" : names;
}

cl_int CL_API_CALL get_device_info(cl_device_id d, cl_device_info what, size_t size, void *value, size_t *size_ret) {
    const DevicePersonality *p = active_device_personality();
    if (!p) return real().get_device_info(d, what, size, value, size_ret);
    switch (what) {
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: {
        const size_t v = p->cl_max_work_group_size;
        return answer_info(&v, sizeof v, size, value, size_ret);
    }
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        const size_t v[3] = {p->cl_max_work_item_sizes[0], p->cl_max_work_item_sizes[1], p->cl_max_work_item_sizes[2]};
        return answer_info(v, sizeof v, size, value, size_ret);
    }
    case CL_DEVICE_LOCAL_MEM_SIZE: {
        const cl_ulong v = p->cl_local_mem_size;
        return answer_info(&v, sizeof v, size, value, size_ret);
    }
    case CL_DEVICE_DOUBLE_FP_CONFIG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
        if (!p->fp64) {
            const cl_ulong zero = 0;  // cl_device_fp_config is a cl_ulong; the widths are cl_uint
            return answer_info(&zero, what == CL_DEVICE_DOUBLE_FP_CONFIG ? sizeof(cl_ulong) : sizeof(cl_uint), size,
                               value, size_ret);
        }
        break;
    case CL_DEVICE_EXTENSIONS:
        if (!p->fp64) {
            size_t n = 0;
            if (const cl_int e = real().get_device_info(d, what, 0, nullptr, &n); e != CL_SUCCESS) return e;
            std::string s(n, '\0');
            if (const cl_int e = real().get_device_info(d, what, n, s.data(), nullptr); e != CL_SUCCESS) return e;
            s.resize(std::strlen(s.c_str()));
            s = without_word(s, "cl_khr_fp64");
            return answer_info(s.c_str(), s.size() + 1, size, value, size_ret);
        }
        break;
    default:
        break;
    }
    return real().get_device_info(d, what, size, value, size_ret);
}

cl_int CL_API_CALL kernel_work_group_info(cl_kernel k, cl_device_id d, cl_kernel_work_group_info what, size_t size,
                                          void *value, size_t *size_ret) {
    const DevicePersonality *p = active_device_personality();
    if (p && what == CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) {
        const size_t v = p->subgroup_size;
        return answer_info(&v, sizeof v, size, value, size_ret);
    }
    if (p && what == CL_KERNEL_WORK_GROUP_SIZE) {
        size_t v = 0;
        if (const cl_int e = real().kernel_work_group_info(k, d, what, sizeof v, &v, nullptr); e != CL_SUCCESS)
            return e;
        v = std::min<size_t>(v, p->cl_max_work_group_size);
        return answer_info(&v, sizeof v, size, value, size_ret);
    }
    return real().kernel_work_group_info(k, d, what, size, value, size_ret);
}

}  // namespace cl_shim

}  // namespace harness
