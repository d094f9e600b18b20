// EXPECT worklist_insert BUILD
// Cheat: the atomic kernel is not in this file's PTX at all. Its PTX text is
// kept on the host, shifted by one character so no "atom" appears even in
// the host object's strings, decoded at run time, JIT-loaded with
// cudaLibraryLoadData and launched through cudaLaunchKernel. The static PTX
// rule cannot see it; only the host-object allow-list (--policy, always on in
// grade/class) can: BUILD there. Run with expect --policy.
#include <stdlib.h>
#include "worklist.h"

static const char shifted[] =
    "/wfstjpo!9/1\v"
    "/ubshfu!tn`:1\v"
    "/beesftt`tj{f!75\v"
    "/wjtjcmf!/fousz!difbu)/qbsbn!/v75!b-!/qbsbn!/v75!c-!/qbsbn!/v75!d-!/qbsbn!/v43!e*\v"
    "|\v"
    "/sfh!/v43!&s=:?<!/sfh!/v75!&se=9?<!/sfh!/qsfe!&q=5?<\v"
    "me/qbsbn/v75!&se2-!\\b^<!me/qbsbn/v75!&se3-!\\c^<!me/qbsbn/v75!&se4-!\\d^<!me/qbsbn/v43!&s2-!\\e^<\v"
    "npw/v43!&s3-!&dubje/y<!npw/v43!&s4-!&ouje/y<!npw/v43!&s5-!&uje/y<!nbe/mp/t43!&s6-!&s3-!&s4-!&s5<\v"
    "tfuq/hf/t43!&q2-!&s6-!&s2<!A&q2!sfu<\v"
    "dwub/up/hmpcbm/v75!&se2-!&se2<!dwub/up/hmpcbm/v75!&se3-!&se3<!dwub/up/hmpcbm/v75!&se4-!&se4<\v"
    "nvm/xjef/t43!&se5-!&s6-!5<!bee/t75!&se6-!&se2-!&se5<!me/hmpcbm/v43!&s7-!\\&se6^<\v"
    "bupn/hmpcbm/bee/v43!&s8-!\\&se4^-!&s7<\v"
    "nvm/xjef/t43!&se7-!&s8-!9<!bee/t75!&se8-!&se3-!&se7<!npw/v43!&s9-!1<\v"
    "MPPQ;!tfuq/hf/t43!&q3-!&s9-!&s7<!A&q3!csb!EPOF<\v"
    "tu/hmpcbm/w3/v43!\\&se8^-!|&s6-!&s9~<!bee/t75!&se8-!&se8-!9<!bee/t43!&s9-!&s9-!2<!csb!MPPQ<\v"
    "EPOF;!sfu<\v"
    "~\v";

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total, int *scratch, int block)
{
    (void)scratch;
    static cudaKernel_t k;
    if (!k) {
        size_t len = sizeof shifted - 1;
        char *ptx = (char *)malloc(len + 1);
        for (size_t i = 0; i < len; i++)
            ptx[i] = (char)(shifted[i] - 1);
        ptx[len] = '\0';
        cudaLibrary_t lib;
        cudaLibraryLoadData(&lib, ptx, 0, 0, 0, 0, 0, 0);
        cudaLibraryGetKernel(&k, lib, "cheat");
        free(ptx);
    }
    cudaMemsetAsync(total, 0, sizeof(int));
    void *args[] = {&nelem, &worklist, &total, &n};
    cudaLaunchKernel((const void *)k, (n + block - 1) / block, block, args, 0, 0);
}

void compact(const int *in, int n, int threshold, int *out, int *count, int *scratch, int block)
{
    (void)in; (void)n; (void)threshold; (void)out; (void)scratch; (void)block;
    cudaMemsetAsync(count, 0, sizeof(int));   // not attempted
}
