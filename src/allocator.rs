//! The process's memory allocator: mimalloc, asked the way the system allocator is asked.
//!
//! The service allocates many small, short-lived buffers per request (JSON, headers, tokens,
//! the futures of each request's middleware); mimalloc serves them with less CPU than the
//! system allocator. Built with `no_thp`, it turns transparent huge pages off for the process
//! as it sets itself up, before the first allocation: with them, the kernel backs each part of
//! its arena the service touches with 2 MiB at once, and a server whose heap holds a few MiB
//! kept about 32 MiB resident.
//!
//! The `mimalloc` crate's allocator asks for every block with `mi_malloc_aligned`, whatever its
//! alignment. mimalloc answers that from its fast path only for blocks up to 1 KiB; a larger
//! one (a request's boxed futures, pages, response bodies) goes through its generic aligned path
//! and is over-allocated, about 150 instructions more each, a dozen times per request: 3% of a
//! userinfo request's instructions and of a sign-in's. Here, as in the standard library's
//! `System` allocator, an alignment that every `mi_malloc` block already has (at most 16 bytes,
//! and not more than the size) takes `mi_malloc`; only a larger one takes the aligned call.
//!
//! This is the one module allowed `unsafe`: `GlobalAlloc` is an unsafe trait.
#![allow(unsafe_code)]

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment every `mi_malloc` block of at least that size has (`MI_MAX_ALIGN_SIZE`, as C's
/// `malloc` guarantees for `max_align_t`); smaller blocks are aligned to their size.
const MALLOC_ALIGN: usize = 16;

/// Whether a plain `mi_malloc` block of `size` bytes is aligned to `align`.
fn malloc_aligns(size: usize, align: usize) -> bool {
    align <= MALLOC_ALIGN && align <= size
}

/// mimalloc as the global allocator; see the module documentation.
pub struct MiMalloc;

// SAFETY: every method forwards to mimalloc, which returns blocks of at least the size asked
// (or null), aligned as `malloc_aligns` says or as the `_aligned` call is asked, and frees or
// resizes any block it returned, whichever of its calls returned it.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if malloc_aligns(layout.size(), layout.align()) {
            // SAFETY: mimalloc takes any size.
            unsafe { mi_malloc(layout.size()) }.cast()
        } else {
            // SAFETY: `Layout` guarantees a power-of-two alignment.
            unsafe { mi_malloc_aligned(layout.size(), layout.align()) }.cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if malloc_aligns(layout.size(), layout.align()) {
            // SAFETY: as in `alloc`.
            unsafe { mi_zalloc(layout.size()) }.cast()
        } else {
            // SAFETY: as in `alloc`.
            unsafe { mi_zalloc_aligned(layout.size(), layout.align()) }.cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: the caller gives back a block this allocator returned.
        unsafe { mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if malloc_aligns(new_size, layout.align()) {
            // SAFETY: the caller gives a block this allocator returned; mimalloc keeps its
            // contents up to the smaller size.
            unsafe { mi_realloc(ptr.cast::<c_void>(), new_size) }.cast()
        } else {
            // SAFETY: as above, with a power-of-two alignment from `Layout`.
            unsafe { mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()) }.cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes on both sides of mimalloc's small-block limit (1 KiB) and of its page sizes.
    const SIZES: [usize; 14] = [
        1, 3, 8, 15, 16, 24, 100, 1000, 1024, 1025, 1500, 4096, 70_000, 5_000_000,
    ];

    fn aligned(ptr: *mut u8, align: usize) -> bool {
        !ptr.is_null() && (ptr as usize).is_multiple_of(align)
    }

    #[test]
    fn blocks_have_their_alignment_and_keep_what_is_written() {
        for size in SIZES {
            for shift in 0..13 {
                let align = 1usize << shift;
                let Ok(layout) = Layout::from_size_align(size, align) else {
                    continue;
                };
                // SAFETY: a non-zero size; the block is written within its size, then freed
                // with its layout.
                unsafe {
                    let ptr = MiMalloc.alloc(layout);
                    assert!(aligned(ptr, align), "size {size}, align {align}");
                    ptr.write_bytes(0xa5, size);
                    assert_eq!(*ptr.add(size - 1), 0xa5);
                    MiMalloc.dealloc(ptr, layout);
                }
            }
        }
    }

    #[test]
    fn zeroed_blocks_are_zero_even_where_a_block_was_written_before() {
        for size in SIZES {
            for align in [1, 8, 16, 64, 4096] {
                let Ok(layout) = Layout::from_size_align(size, align) else {
                    continue;
                };
                // SAFETY: as above; the first block is dirtied and freed so that the zeroed
                // one may reuse it.
                unsafe {
                    let dirty = MiMalloc.alloc(layout);
                    dirty.write_bytes(0xff, size);
                    MiMalloc.dealloc(dirty, layout);
                    let ptr = MiMalloc.alloc_zeroed(layout);
                    assert!(aligned(ptr, align), "size {size}, align {align}");
                    assert!((0..size).all(|i| *ptr.add(i) == 0), "size {size}");
                    MiMalloc.dealloc(ptr, layout);
                }
            }
        }
    }

    #[test]
    fn a_resized_block_keeps_its_alignment_and_contents() {
        for align in [1, 8, 16, 32, 64, 4096] {
            for (from, to) in [(8, 2000), (16, 17), (1000, 1025), (5000, 100), (64, 70_000)] {
                let Ok(layout) = Layout::from_size_align(from, align) else {
                    continue;
                };
                // SAFETY: as above; the block is read only within the smaller size, and freed
                // with its new size.
                unsafe {
                    let ptr = MiMalloc.alloc(layout);
                    for i in 0..from {
                        *ptr.add(i) = (i % 251) as u8;
                    }
                    let grown = MiMalloc.realloc(ptr, layout, to);
                    assert!(aligned(grown, align), "{from} -> {to}, align {align}");
                    for i in 0..from.min(to) {
                        assert_eq!(*grown.add(i), (i % 251) as u8, "{from} -> {to}, byte {i}");
                    }
                    let new_layout = Layout::from_size_align(to, align).unwrap_or(layout);
                    MiMalloc.dealloc(grown, new_layout);
                }
            }
        }
    }
}
