;; Stage 1 of the palm 1:N search (packages/palm/src/wasm-search.ts), as the cascade of search.ts's
;; `cascadeBlock`: the head of every entry's coarse template first, then the whole coarse template for the
;; entries whose head was among the best of their block. Distances are numbers of differing 2-bit symbols,
;; minimised over the probe's coarse alignments.
;;
;; Layout: a coarse template is a run of 32-byte chunks of 128 symbols each. A chunk holds a low-bit plane P
;; and a high-bit plane Q of 16 bytes each, made from pairs of template words (w0, w1):
;;   P = (w0 & 0x55555555) | ((w1 & 0x55555555) << 1),  Q = ((w0 >>> 1) & 0x55555555) | (w1 & 0xaaaaaaaa)
;; so every bit position of (P, Q) is one symbol, and a symbol differs iff its bit differs in P or in Q:
;;   mismatches = popcount((Pa ^ Pb) | (Qa ^ Qb)), exactly the count of the word-wise JS code.
;; The entries' heads (the first $hb bytes of their chunks) and tails (the other $tb bytes) are two arrays,
;; so the first pass streams only the heads. A probe alignment is its $hb + $tb bytes, back to back.
;; Per alignment and chunk, one vector XOR/OR gives the differing symbols, and their count is two scalar
;; i64.popcnt (one instruction each on x64) of its halves. Measured on this machine's x64 and Node 20's V8,
;; that beat i8x16.popcnt with widening horizontal sums by about a third (V8 builds i8x16.popcnt from nibble
;; table lookups); a head of two chunks keeps its four vectors in locals while all alignments run over it,
;; which took a third off the first pass against the loop over chunks.
;;
;; Rebuild the committed bytes with `npm run build:wasm -w @hasta/palm`.
(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; Symbols differing between the $bytes bytes at $x and at $q ($bytes a positive multiple of 32).
  (func $span (param $x i32) (param $q i32) (param $bytes i32) (result i32)
    (local $end i32) (local $n i64) (local $m v128)
    (local.set $end (i32.add (local.get $x) (local.get $bytes)))
    (loop $chunk
      (local.set $m (v128.or
        (v128.xor (v128.load offset=0 (local.get $x)) (v128.load offset=0 (local.get $q)))
        (v128.xor (v128.load offset=16 (local.get $x)) (v128.load offset=16 (local.get $q)))))
      (local.set $n (i64.add (local.get $n) (i64.add
        (i64.popcnt (i64x2.extract_lane 0 (local.get $m)))
        (i64.popcnt (i64x2.extract_lane 1 (local.get $m))))))
      (local.set $q (i32.add (local.get $q) (i32.const 32)))
      (local.set $x (i32.add (local.get $x) (i32.const 32)))
      (br_if $chunk (i32.lt_u (local.get $x) (local.get $end))))
    (i32.wrap_i64 (local.get $n)))

  ;; The whole coarse distance of entry $i: its head and tail against every alignment, the smallest sum.
  (func $full (param $heads i32) (param $tails i32) (param $hb i32) (param $tb i32) (param $probe i32)
    (param $alignments i32) (param $i i32) (result i32)
    (local $e i32) (local $t i32) (local $p i32) (local $pb i32) (local $end i32) (local $d i32) (local $best i32)
    (local $m v128) (local $e0 v128) (local $e1 v128) (local $e2 v128) (local $e3 v128)
    (local $e4 v128) (local $e5 v128) (local $e6 v128) (local $e7 v128)
    (local.set $pb (i32.add (local.get $hb) (local.get $tb)))
    (local.set $e (i32.add (local.get $heads) (i32.mul (local.get $i) (local.get $hb))))
    (local.set $t (i32.add (local.get $tails) (i32.mul (local.get $i) (local.get $tb))))
    (local.set $end (i32.add (local.get $probe) (i32.mul (local.get $alignments) (local.get $pb))))
    (local.set $best (i32.const 0xffff))
    (local.set $p (local.get $probe))
    (if (i32.and (i32.eq (local.get $hb) (i32.const 64)) (i32.eq (local.get $tb) (i32.const 64)))
      (then
        ;; Two chunks of head and two of tail: the eight vectors in locals.
        (local.set $e0 (v128.load offset=0 (local.get $e)))
        (local.set $e1 (v128.load offset=16 (local.get $e)))
        (local.set $e2 (v128.load offset=32 (local.get $e)))
        (local.set $e3 (v128.load offset=48 (local.get $e)))
        (local.set $e4 (v128.load offset=0 (local.get $t)))
        (local.set $e5 (v128.load offset=16 (local.get $t)))
        (local.set $e6 (v128.load offset=32 (local.get $t)))
        (local.set $e7 (v128.load offset=48 (local.get $t)))
        (loop $alignment
          (local.set $d
            (i32.wrap_i64
              (i64.add
                (i64.add
                  (i64.add
                    (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                      (v128.or
                        (v128.xor (local.get $e0) (v128.load offset=0 (local.get $p)))
                        (v128.xor (local.get $e1) (v128.load offset=16 (local.get $p)))))))
                    (i64.popcnt (i64x2.extract_lane 1 (local.get $m))))
                  (i64.add
                    (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                      (v128.or
                        (v128.xor (local.get $e2) (v128.load offset=32 (local.get $p)))
                        (v128.xor (local.get $e3) (v128.load offset=48 (local.get $p)))))))
                    (i64.popcnt (i64x2.extract_lane 1 (local.get $m)))))
                (i64.add
                  (i64.add
                    (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                      (v128.or
                        (v128.xor (local.get $e4) (v128.load offset=64 (local.get $p)))
                        (v128.xor (local.get $e5) (v128.load offset=80 (local.get $p)))))))
                    (i64.popcnt (i64x2.extract_lane 1 (local.get $m))))
                  (i64.add
                    (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                      (v128.or
                        (v128.xor (local.get $e6) (v128.load offset=96 (local.get $p)))
                        (v128.xor (local.get $e7) (v128.load offset=112 (local.get $p)))))))
                    (i64.popcnt (i64x2.extract_lane 1 (local.get $m))))))))
          (local.set $best
            (select (local.get $d) (local.get $best) (i32.lt_u (local.get $d) (local.get $best))))
          (local.set $p (i32.add (local.get $p) (i32.const 128)))
          (br_if $alignment (i32.lt_u (local.get $p) (local.get $end))))
        (return (local.get $best))))
    ;; Any other sizes: the loops over chunks.
    (loop $alignment
      (local.set $d (call $span (local.get $e) (local.get $p) (local.get $hb)))
      (if (local.get $tb)
        (then (local.set $d (i32.add (local.get $d)
          (call $span (local.get $t) (i32.add (local.get $p) (local.get $hb)) (local.get $tb))))))
      (local.set $best
        (select (local.get $d) (local.get $best) (i32.lt_u (local.get $d) (local.get $best))))
      (local.set $p (i32.add (local.get $p) (local.get $pb)))
      (br_if $alignment (i32.lt_u (local.get $p) (local.get $end))))
    (local.get $best))

  ;; Head distances of entries [from, to) into out[i] (u16), the head against the first $hb bytes of every
  ;; alignment; alignments are $pb bytes apart.
  (func $heads (param $heads i32) (param $hb i32) (param $probe i32) (param $pb i32) (param $alignments i32)
    (param $out i32) (param $from i32) (param $to i32)
    (local $i i32) (local $e i32) (local $p i32) (local $end i32) (local $best i32) (local $d i32)
    (local $m v128) (local $e0 v128) (local $e1 v128) (local $e2 v128) (local $e3 v128)
    (local.set $end (i32.add (local.get $probe) (i32.mul (local.get $alignments) (local.get $pb))))
    (local.set $i (local.get $from))
    (if (i32.ne (local.get $hb) (i32.const 64))
      (then
        ;; Any other head size: the loop over chunks.
        (loop $entry
          (local.set $e (i32.add (local.get $heads) (i32.mul (local.get $i) (local.get $hb))))
          (local.set $best (i32.const 0xffff))
          (local.set $p (local.get $probe))
          (loop $alignment
            (local.set $d (call $span (local.get $e) (local.get $p) (local.get $hb)))
            (local.set $best
              (select (local.get $d) (local.get $best) (i32.lt_u (local.get $d) (local.get $best))))
            (local.set $p (i32.add (local.get $p) (local.get $pb)))
            (br_if $alignment (i32.lt_u (local.get $p) (local.get $end))))
          (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (local.get $best))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $entry (i32.lt_u (local.get $i) (local.get $to))))
        (return)))
    ;; A head of two chunks: its four vectors in locals.
    (loop $entry
      (local.set $e (i32.add (local.get $heads) (i32.mul (local.get $i) (local.get $hb))))
      (local.set $e0 (v128.load offset=0 (local.get $e)))
      (local.set $e1 (v128.load offset=16 (local.get $e)))
      (local.set $e2 (v128.load offset=32 (local.get $e)))
      (local.set $e3 (v128.load offset=48 (local.get $e)))
      (local.set $best (i32.const 0xffff))
      (local.set $p (local.get $probe))
      (loop $alignment
        (local.set $d
          (i32.wrap_i64
            (i64.add
              (i64.add
                (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                  (v128.or
                    (v128.xor (local.get $e0) (v128.load offset=0 (local.get $p)))
                    (v128.xor (local.get $e1) (v128.load offset=16 (local.get $p)))))))
                (i64.popcnt (i64x2.extract_lane 1 (local.get $m))))
              (i64.add
                (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                  (v128.or
                    (v128.xor (local.get $e2) (v128.load offset=32 (local.get $p)))
                    (v128.xor (local.get $e3) (v128.load offset=48 (local.get $p)))))))
                (i64.popcnt (i64x2.extract_lane 1 (local.get $m)))))))
        (local.set $best
          (select (local.get $d) (local.get $best) (i32.lt_u (local.get $d) (local.get $best))))
        (local.set $p (i32.add (local.get $p) (local.get $pb)))
        (br_if $alignment (i32.lt_u (local.get $p) (local.get $end))))
      (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (local.get $best))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $entry (i32.lt_u (local.get $i) (local.get $to)))))

;; Stage 2: for each of $count templates of $bytes bytes back to back at $entries, the smallest number of
  ;; differing symbols against any of $alignments probe templates back to back at $probe, into out[k] (u32).
  (func (export "fine") (param $entries i32) (param $count i32) (param $probe i32) (param $alignments i32)
    (param $bytes i32) (param $out i32)
    (local $k i32) (local $e i32) (local $p i32) (local $end i32) (local $d i32) (local $best i32)
    (if (i32.or (i32.eqz (local.get $count)) (i32.eqz (local.get $alignments))) (then (return)))
    (local.set $end (i32.add (local.get $probe) (i32.mul (local.get $alignments) (local.get $bytes))))
    (loop $entry
      (local.set $e (i32.add (local.get $entries) (i32.mul (local.get $k) (local.get $bytes))))
      (local.set $best (i32.const -1))
      (local.set $p (local.get $probe))
      (loop $alignment
        (local.set $d (call $span (local.get $e) (local.get $p) (local.get $bytes)))
        (local.set $best
          (select (local.get $d) (local.get $best) (i32.lt_u (local.get $d) (local.get $best))))
        (local.set $p (i32.add (local.get $p) (local.get $bytes)))
        (br_if $alignment (i32.lt_u (local.get $p) (local.get $end))))
      (i32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2))) (local.get $best))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $entry (i32.lt_u (local.get $k) (local.get $count)))))

  ;; The whole coarse distances of entries [from, to) into out[i] (u16).
  (func (export "scan")
    (param $heads i32) (param $tails i32) (param $hb i32) (param $tb i32) (param $probe i32)
    (param $alignments i32) (param $out i32) (param $from i32) (param $to i32)
    (local $i i32)
    (local.set $i (local.get $from))
    (block $done
      (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
      (br_if $done (i32.eqz (local.get $alignments)))
      (loop $entry
        (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1)))
          (call $full (local.get $heads) (local.get $tails) (local.get $hb) (local.get $tb) (local.get $probe)
            (local.get $alignments) (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $entry (i32.lt_u (local.get $i) (local.get $to))))))

  ;; One block [from, to) of the cascade: head distances into scores[i] (u16) and their histogram into
  ;; hist (u32 per distance 0 .. 4 × $hb); the cut, the smallest distance with at least $keep' = min($keep,
  ;; to − from) heads at or below it; then the $keep' entries with the smallest heads (those below the cut,
  ;; and the first in slot order at it), in slot order, each as the pair (slot, whole coarse distance) of two
  ;; u32 into out. Returns the number of pairs ($keep').
  (func (export "cascade")
    (param $heads i32) (param $tails i32) (param $hb i32) (param $tb i32) (param $probe i32)
    (param $alignments i32) (param $scores i32) (param $hist i32) (param $out i32) (param $from i32)
    (param $to i32) (param $keep i32) (result i32)
    (local $i i32) (local $h i32) (local $cut i32) (local $total i32) (local $n i32) (local $bins i32)
    (local $room i32)
    (if (i32.or (i32.ge_u (local.get $from) (local.get $to)) (i32.eqz (local.get $alignments)))
      (then (return (i32.const 0))))
    (local.set $bins (i32.add (i32.shl (local.get $hb) (i32.const 2)) (i32.const 1)))
    (memory.fill (local.get $hist) (i32.const 0) (i32.shl (local.get $bins) (i32.const 2)))
    (call $heads (local.get $heads) (local.get $hb) (local.get $probe) (i32.add (local.get $hb) (local.get $tb))
      (local.get $alignments) (local.get $scores) (local.get $from) (local.get $to))
    (local.set $i (local.get $from))
    (loop $count
      (local.set $h (i32.add (local.get $hist)
        (i32.shl (i32.load16_u (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 2))))
      (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $count (i32.lt_u (local.get $i) (local.get $to))))
    (if (i32.gt_u (local.get $keep) (i32.sub (local.get $to) (local.get $from)))
      (then (local.set $keep (i32.sub (local.get $to) (local.get $from)))))
    ;; The histogram holds to − from ≥ keep heads, so the cut is found by the last bin.
    (local.set $cut (i32.const 0))
    (local.set $total (i32.load (local.get $hist)))
    (block $found
      (loop $scan
        (br_if $found (i32.ge_u (local.get $total) (local.get $keep)))
        (local.set $cut (i32.add (local.get $cut) (i32.const 1)))
        (local.set $total (i32.add (local.get $total)
          (i32.load (i32.add (local.get $hist) (i32.shl (local.get $cut) (i32.const 2))))))
        (br_if $scan (i32.lt_u (local.get $cut) (local.get $bins)))))
    ;; Room at the cut: $keep' less the heads below it.
    (local.set $room (i32.sub (local.get $keep)
      (i32.sub (local.get $total) (i32.load (i32.add (local.get $hist) (i32.shl (local.get $cut) (i32.const 2)))))))
    (local.set $i (local.get $from))
    (loop $select
      (local.set $h (i32.load16_u (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 1)))))
      (if (i32.or (i32.lt_u (local.get $h) (local.get $cut))
            (i32.and (i32.eq (local.get $h) (local.get $cut)) (i32.gt_s (local.get $room) (i32.const 0))))
        (then
          (if (i32.eq (local.get $h) (local.get $cut))
            (then (local.set $room (i32.sub (local.get $room) (i32.const 1)))))
          (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3))) (local.get $i))
          (i32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
            (call $full (local.get $heads) (local.get $tails) (local.get $hb) (local.get $tb) (local.get $probe)
              (local.get $alignments) (local.get $i)))
          (local.set $n (i32.add (local.get $n) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $select (i32.lt_u (local.get $i) (local.get $to))))
    (local.get $n))
)
