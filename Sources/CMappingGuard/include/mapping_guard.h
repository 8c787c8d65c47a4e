#ifndef COFFER_MAPPING_GUARD_H
#define COFFER_MAPPING_GUARD_H

#include <stddef.h>

// A guard for shared file mappings: touching a page of a MAP_SHARED mapping that lies past the
// end of its file (another program truncated the file) raises SIGBUS, which would end the process.
// Inside a registered range the guard's handler maps a private zero page over the faulting page
// instead, marks the range, and lets the access go on; the store then sees the mark after its
// operation, reloads from what the file now holds and never trusts what that operation read.
// A SIGBUS anywhere else goes to the handler that was installed before (or the default action).

// Installs the SIGBUS handler once per process. Returns 0, or the errno of sigaction.
int coffer_mapping_guard_install(void);

// Registers [start, start + length). Returns a slot (>= 0), or -1 when every slot is taken (the
// caller then keeps checking the file's size before each access instead).
int coffer_mapping_guard_register(void *start, size_t length);

// Ends the slot's registration; call it before the range is unmapped.
void coffer_mapping_guard_unregister(int slot);

// Whether a fault was handled in the slot's range since the last call; clears the mark.
int coffer_mapping_guard_take_fault(int slot);

// The number of faults handled in this process so far. An opaque call: loads from the mapping
// written before it in program order are not moved past it.
unsigned long coffer_mapping_guard_faults(void);

#endif
