#include "mapping_guard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

// Slots are claimed with a compare-and-swap on `state` and read by the handler without a lock
// (a signal handler may take none): free -> claimed -> active, and back through claimed to free.
enum { slot_free = 0, slot_claimed = 1, slot_active = 2, slot_count = 4096 };

struct slot {
    _Atomic int state;
    _Atomic uintptr_t start;
    _Atomic uintptr_t end;
    _Atomic int faulted;
};

static struct slot slots[slot_count];
// One past the highest slot ever claimed: the handler scans no further.
static _Atomic int slots_used;
static _Atomic unsigned long faults;
static uintptr_t page_mask;
static struct sigaction previous;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int install_error;

// Hands a SIGBUS that is not the guard's to the handler installed before it. With none, the
// default action is restored: a fault raised by the kernel happens again when the handler returns
// and ends the process as it would have without the guard; a signal sent by kill is raised again.
static void pass_on(int signal_number, siginfo_t *info, void *context) {
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
        previous.sa_sigaction(signal_number, info, context);
        return;
    }
    if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal_number);
        return;
    }
    struct sigaction fallback;
    fallback.sa_handler = SIG_DFL;
    fallback.sa_flags = 0;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGBUS, &fallback, NULL);
    if (info == NULL || info->si_code <= 0) raise(SIGBUS);
}

static void handle_bus_error(int signal_number, siginfo_t *info, void *context) {
    // Only faults the kernel raised for an address (not a kill, not an alignment trap).
    if (info != NULL && (info->si_code == BUS_ADRERR || info->si_code == BUS_OBJERR)) {
        uintptr_t address = (uintptr_t)info->si_addr;
        int used = atomic_load_explicit(&slots_used, memory_order_acquire);
        for (int index = 0; index < used; index++) {
            struct slot *slot = &slots[index];
            if (atomic_load_explicit(&slot->state, memory_order_acquire) != slot_active) continue;
            uintptr_t start = atomic_load_explicit(&slot->start, memory_order_relaxed);
            uintptr_t end = atomic_load_explicit(&slot->end, memory_order_relaxed);
            if (address < start || address >= end) continue;
            void *page = (void *)(address & page_mask);
            void *mapped = mmap(page, (size_t)(~page_mask + 1), PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            if (mapped == MAP_FAILED) break;
            atomic_store_explicit(&slot->faulted, 1, memory_order_release);
            atomic_fetch_add_explicit(&faults, 1, memory_order_acq_rel);
            return;
        }
    }
    pass_on(signal_number, info, context);
}

static void install(void) {
    long page = sysconf(_SC_PAGESIZE);
    page_mask = ~(uintptr_t)((page > 0 ? page : 4096) - 1);
    struct sigaction action;
    action.sa_sigaction = handle_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous) != 0) install_error = errno;
}

int coffer_mapping_guard_install(void) {
    pthread_once(&once, install);
    return install_error;
}

int coffer_mapping_guard_register(void *start, size_t length) {
    if (start == NULL || length == 0 || coffer_mapping_guard_install() != 0) return -1;
    for (int index = 0; index < slot_count; index++) {
        struct slot *slot = &slots[index];
        int expected = slot_free;
        if (!atomic_compare_exchange_strong(&slot->state, &expected, slot_claimed)) continue;
        atomic_store_explicit(&slot->start, (uintptr_t)start, memory_order_relaxed);
        atomic_store_explicit(&slot->end, (uintptr_t)start + length, memory_order_relaxed);
        atomic_store_explicit(&slot->faulted, 0, memory_order_relaxed);
        int used = atomic_load(&slots_used);
        while (used < index + 1 && !atomic_compare_exchange_weak(&slots_used, &used, index + 1)) {}
        atomic_store_explicit(&slot->state, slot_active, memory_order_release);
        return index;
    }
    return -1;
}

void coffer_mapping_guard_unregister(int slot) {
    if (slot < 0 || slot >= slot_count) return;
    atomic_store_explicit(&slots[slot].state, slot_claimed, memory_order_release);
    atomic_store_explicit(&slots[slot].faulted, 0, memory_order_relaxed);
    atomic_store_explicit(&slots[slot].state, slot_free, memory_order_release);
}

int coffer_mapping_guard_take_fault(int slot) {
    if (slot < 0 || slot >= slot_count) return 0;
    return atomic_exchange_explicit(&slots[slot].faulted, 0, memory_order_acq_rel);
}

unsigned long coffer_mapping_guard_faults(void) {
    return atomic_load_explicit(&faults, memory_order_acquire);
}
