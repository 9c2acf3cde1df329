;; The literal scans of `literal-scan.ts` (the search's caseless literal) and of
;; `text/byte-kernels.ts` (edit_file's every match, replaced bytes, line breaks), in
;; WebAssembly text. `build-literal-scan.mjs` compiles it into `literal-scan-wasm.ts`; a test
;; checks that the two agree.
;;
;; Memory (one per search thread, and one for the edits): the first 64 KB hold needles, one per
;; 512-byte slot: the literal's bytes (folded to lower case for a caseless one) at the slot, and
;; at slot + 256 each byte's fold mask (0x20 for an ASCII letter of a caseless literal, 0
;; otherwise). A byte b matches needle byte n with mask f when (b | f) == n, so a letter
;; matches in either case and anything else only itself; with every mask 0, only itself. The
;; bytes scanned lie after the first 64 KB.
(module
  (memory (export "memory") 17)

  ;; 1 when the `length` bytes at `at` match the needle at `needle`, else 0.
  (func $matchesAt (param $needle i32) (param $length i32) (param $at i32) (result i32)
    (local $index i32)
    (loop $next
      (if (i32.ge_u (local.get $index) (local.get $length)) (then (return (i32.const 1))))
      (if (i32.ne
            (i32.or
              (i32.load8_u (i32.add (local.get $at) (local.get $index)))
              (i32.load8_u offset=256 (i32.add (local.get $needle) (local.get $index))))
            (i32.load8_u (i32.add (local.get $needle) (local.get $index))))
        (then (return (i32.const 0))))
      (local.set $index (i32.add (local.get $index) (i32.const 1)))
      (br $next))
    (i32.const 0))

  ;; The first place p, from <= p and p + length <= end, where the needle matches, or -1.
  ;; Sixteen places at once: a place is a candidate when its bytes at the needle's two anchors
  ;; (`first` and `second`, its two rarest characters) match; candidates are then checked whole.
  ;; No load reads at or past `end`.
  (func $find (export "find")
    (param $needle i32) (param $length i32) (param $first i32) (param $second i32) (param $from i32) (param $end i32)
    (result i32)
    (local $place i32) (local $reach i32) (local $bits i32) (local $candidate i32)
    (local $byte1 v128) (local $fold1 v128) (local $byte2 v128) (local $fold2 v128) (local $low v128) (local $high v128)
    (local.set $byte1 (i8x16.splat (i32.load8_u (i32.add (local.get $needle) (local.get $first)))))
    (local.set $fold1 (i8x16.splat (i32.load8_u offset=256 (i32.add (local.get $needle) (local.get $first)))))
    (local.set $byte2 (i8x16.splat (i32.load8_u (i32.add (local.get $needle) (local.get $second)))))
    (local.set $fold2 (i8x16.splat (i32.load8_u offset=256 (i32.add (local.get $needle) (local.get $second)))))
    ;; The farther anchor: 32 places from `place` read up to place + reach + 31.
    (local.set $reach (select (local.get $first) (local.get $second) (i32.gt_u (local.get $first) (local.get $second))))
    (local.set $place (local.get $from))
    (block $wide_done
      (loop $wide
        (br_if $wide_done (i32.gt_u (i32.add (i32.add (local.get $place) (local.get $reach)) (i32.const 32)) (local.get $end)))
        (local.set $low (v128.and
          (i8x16.eq (v128.or (v128.load (i32.add (local.get $place) (local.get $first))) (local.get $fold1)) (local.get $byte1))
          (i8x16.eq (v128.or (v128.load (i32.add (local.get $place) (local.get $second))) (local.get $fold2)) (local.get $byte2))))
        (local.set $high (v128.and
          (i8x16.eq (v128.or (v128.load offset=16 (i32.add (local.get $place) (local.get $first))) (local.get $fold1)) (local.get $byte1))
          (i8x16.eq (v128.or (v128.load offset=16 (i32.add (local.get $place) (local.get $second))) (local.get $fold2)) (local.get $byte2))))
        (if (v128.any_true (v128.or (local.get $low) (local.get $high)))
          (then
            (local.set $bits (i32.or (i8x16.bitmask (local.get $low)) (i32.shl (i8x16.bitmask (local.get $high)) (i32.const 16))))
            (loop $candidates
              (local.set $candidate (i32.add (local.get $place) (i32.ctz (local.get $bits))))
              (if (i32.le_u (i32.add (local.get $candidate) (local.get $length)) (local.get $end))
                (then (if (call $matchesAt (local.get $needle) (local.get $length) (local.get $candidate))
                  (then (return (local.get $candidate))))))
              (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
              (br_if $candidates (local.get $bits)))))
        (local.set $place (i32.add (local.get $place) (i32.const 32)))
        (br $wide)))
    ;; The last places, fewer than 32 from the end, one by one.
    (block $done
      (loop $tail
        (br_if $done (i32.gt_u (i32.add (local.get $place) (local.get $length)) (local.get $end)))
        (if (call $matchesAt (local.get $needle) (local.get $length) (local.get $place)) (then (return (local.get $place))))
        (local.set $place (i32.add (local.get $place) (i32.const 1)))
        (br $tail)))
    (i32.const -1))

  ;; The places of the needle in [from, end), left to right and not overlapping (the next
  ;; search starts where a match ends, as `String.split` cuts), written as i32 offsets from
  ;; `from` at `out`, at most `limit` of them; returns how many.
  (func (export "findAll")
    (param $needle i32) (param $length i32) (param $first i32) (param $second i32) (param $from i32) (param $end i32) (param $out i32) (param $limit i32)
    (result i32)
    (local $count i32) (local $at i32)
    (local.set $at (local.get $from))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $count) (local.get $limit)))
        (local.set $at (call $find (local.get $needle) (local.get $length) (local.get $first) (local.get $second) (local.get $at) (local.get $end)))
        (br_if $done (i32.eq (local.get $at) (i32.const -1)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))) (i32.sub (local.get $at) (local.get $from)))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (local.set $at (i32.add (local.get $at) (local.get $length)))
        (br $next)))
    (local.get $count))

  ;; Copies `length` bytes from `from` to `to` (regions apart), sixteen at a time: a call of
  ;; `memory.copy` costs more than the few dozen bytes between two matches.
  (func $copy (param $to i32) (param $from i32) (param $length i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $from) (local.get $length)))
    (block $wide_done
      (loop $wide
        (br_if $wide_done (i32.gt_u (i32.add (local.get $from) (i32.const 16)) (local.get $end)))
        (v128.store (local.get $to) (v128.load (local.get $from)))
        (local.set $from (i32.add (local.get $from) (i32.const 16)))
        (local.set $to (i32.add (local.get $to) (i32.const 16)))
        (br $wide)))
    (block $done
      (loop $tail
        (br_if $done (i32.ge_u (local.get $from) (local.get $end)))
        (i32.store8 (local.get $to) (i32.load8_u (local.get $from)))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (local.set $to (i32.add (local.get $to) (i32.const 1)))
        (br $tail))))

  ;; The `size` bytes at `source` with the `length` bytes at each of the `count` places listed
  ;; at `places` (i32 offsets from `source`, ascending, not overlapping) replaced by the
  ;; `replacementLength` bytes at `replacement`, written at `out` (apart from the others);
  ;; returns how many bytes were written.
  (func (export "splice")
    (param $source i32) (param $size i32) (param $places i32) (param $count i32) (param $length i32) (param $replacement i32) (param $replacementLength i32) (param $out i32)
    (result i32)
    (local $index i32) (local $read i32) (local $write i32) (local $place i32)
    (local.set $read (local.get $source))
    (local.set $write (local.get $out))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $index) (local.get $count)))
        (local.set $place (i32.add (local.get $source) (i32.load (i32.add (local.get $places) (i32.shl (local.get $index) (i32.const 2))))))
        (call $copy (local.get $write) (local.get $read) (i32.sub (local.get $place) (local.get $read)))
        (local.set $write (i32.add (local.get $write) (i32.sub (local.get $place) (local.get $read))))
        (call $copy (local.get $write) (local.get $replacement) (local.get $replacementLength))
        (local.set $write (i32.add (local.get $write) (local.get $replacementLength)))
        (local.set $read (i32.add (local.get $place) (local.get $length)))
        (local.set $index (i32.add (local.get $index) (i32.const 1)))
        (br $next)))
    (call $copy (local.get $write) (local.get $read) (i32.sub (i32.add (local.get $source) (local.get $size)) (local.get $read)))
    (i32.sub (i32.add (local.get $write) (i32.sub (i32.add (local.get $source) (local.get $size)) (local.get $read))) (local.get $out)))

  ;; Every `\n` in [from, end), written as i32 offsets from `from` at `out`, sixteen bytes
  ;; looked at a time; returns how many. `out` must have room for end - from of them.
  (func (export "lineBreaks") (param $from i32) (param $end i32) (param $out i32) (result i32)
    (local $place i32) (local $count i32) (local $bits i32) (local $newline v128)
    (local.set $newline (i8x16.splat (i32.const 10)))
    (local.set $place (local.get $from))
    (block $wide_done
      (loop $wide
        (br_if $wide_done (i32.gt_u (i32.add (local.get $place) (i32.const 16)) (local.get $end)))
        (local.set $bits (i8x16.bitmask (i8x16.eq (v128.load (local.get $place)) (local.get $newline))))
        (block $none
          (loop $each
            (br_if $none (i32.eqz (local.get $bits)))
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2)))
              (i32.sub (i32.add (local.get $place) (i32.ctz (local.get $bits))) (local.get $from)))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (br $each)))
        (local.set $place (i32.add (local.get $place) (i32.const 16)))
        (br $wide)))
    (block $done
      (loop $tail
        (br_if $done (i32.ge_u (local.get $place) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $place)) (i32.const 10))
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))) (i32.sub (local.get $place) (local.get $from)))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $place (i32.add (local.get $place) (i32.const 1)))
        (br $tail)))
    (local.get $count)))
