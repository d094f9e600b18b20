/* The one GPU device node a run needs ("gpunode" lever, levers.h). CUDA
 * opens /dev/nvidiaN of every GPU it may use, and making a context did
 * about a third fewer driver calls, each under the driver's machine-wide
 * lock, when the sandbox showed only the node of the run's own GPU (on
 * four H200s: 760 ioctls a context, 487 with one node). The sandbox then
 * binds that node only and names the GPU by its uuid inside, so the run
 * cannot reach another GPU (another student's) even by the driver API.
 * Read from /proc/driver/nvidia/gpus/<PCI bus id>/information, never by
 * asking the driver (no CUDA, no nvidia-smi in a run's path). */
#ifndef SYNCLAB_GPU_NODE_H
#define SYNCLAB_GPU_NODE_H

#include <stddef.h>

typedef struct {
    int minor;     /* /dev/nvidia<minor> */
    char uuid[96]; /* "GPU-...": what CUDA_VISIBLE_DEVICES gets inside */
} sl_gpu_node;

/* The GPU that CUDA calls device 0 given visible (CUDA_VISIBLE_DEVICES;
 * NULL: unset), from root ("/proc/driver/nvidia/gpus") and the nodes in
 * dev ("/dev"); tests give folders of their own. CUDA counts only the GPUs
 * whose node this process may open (a Slurm job's device cgroup denies the
 * others, and renumbers from 0): an index counts the GPUs in PCI bus order,
 * as nvidia-smi does, only where every GPU's node opens; CUDA orders them
 * fastest first unless pci_order (CUDA_DEVICE_ORDER=PCI_BUS_ID), which is
 * the same order only when every GPU is one model. 1 with out filled; 0
 * when it cannot be told for sure, and every node stays: fewer than two
 * GPUs, a MIG instance, an index where a node does not open or on a
 * machine of mixed models without PCI order, an entry that names no GPU or
 * more than one (a uuid prefix), a GPU whose node does not open, an
 * unreadable file. Opens each node once for the process tree (a GPU
 * without persistence mode is set up then): call it once a process, not
 * once a run. */
int sl_gpu_node_pick(const char *root, const char *dev, const char *visible, int pci_order,
                     sl_gpu_node *out);

/* Opens every GPU's node now, in a parent, so that its forks (a class's
 * students) ask nothing: the answers are kept for the process tree. */
void sl_gpu_node_learn(const char *root, const char *dev);

/* Whether the sandbox binds path, a /dev/nvidia* node, for a run on
 * pick's GPU: every node but the other GPUs' /dev/nvidia<digits>. */
int sl_gpu_node_keep(const char *path, const sl_gpu_node *pick);

#endif
