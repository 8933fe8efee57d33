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
  ;; alignment (alignments $pb bytes apart), each also counted in hist (u32 per distance). Counted here rather
  ;; than in a pass over out afterwards: that pass took 1.8 ms of a 31 ms cascade at 10^6 entries on one
  ;; thread, the count here adds nothing measurable.
  (func $heads (param $heads i32) (param $hb i32) (param $probe i32) (param $pb i32) (param $alignments i32)
    (param $out i32) (param $hist i32) (param $from i32) (param $to i32)
    (local $i i32) (local $e i32) (local $p i32) (local $end i32) (local $best i32) (local $d i32)
    (local $m v128) (local $e0 v128) (local $e1 v128) (local $e2 v128) (local $e3 v128)
    (local $f0 v128) (local $f1 v128) (local $f2 v128) (local $f3 v128) (local $best2 i32)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
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
          (local.set $d (i32.add (local.get $hist) (i32.shl (local.get $best) (i32.const 2))))
          (i32.store (local.get $d) (i32.add (i32.load (local.get $d)) (i32.const 1)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $entry (i32.lt_u (local.get $i) (local.get $to))))
        (return)))
    ;; A head of two chunks: its four vectors in locals, two entries at a time sharing the probe's loads
    ;; (measured at 10^6 entries on one thread: 22.8 ms for the cascade against 24.4 one at a time).
    (block $pairs
      (br_if $pairs (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $to)))
      (loop $pair
        (local.set $e (i32.add (local.get $heads) (i32.mul (local.get $i) (local.get $hb))))
        (local.set $e0 (v128.load offset=0 (local.get $e)))
        (local.set $e1 (v128.load offset=16 (local.get $e)))
        (local.set $e2 (v128.load offset=32 (local.get $e)))
        (local.set $e3 (v128.load offset=48 (local.get $e)))
        (local.set $f0 (v128.load offset=64 (local.get $e)))
        (local.set $f1 (v128.load offset=80 (local.get $e)))
        (local.set $f2 (v128.load offset=96 (local.get $e)))
        (local.set $f3 (v128.load offset=112 (local.get $e)))
        (local.set $best (i32.const 0xffff))
        (local.set $best2 (i32.const 0xffff))
        (local.set $p (local.get $probe))
        (loop $alignment2
          (local.set $q0 (v128.load offset=0 (local.get $p)))
          (local.set $q1 (v128.load offset=16 (local.get $p)))
          (local.set $q2 (v128.load offset=32 (local.get $p)))
          (local.set $q3 (v128.load offset=48 (local.get $p)))
          (local.set $d
            (i32.wrap_i64
              (i64.add
                (i64.add
                  (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                    (v128.or (v128.xor (local.get $e0) (local.get $q0)) (v128.xor (local.get $e1) (local.get $q1))))))
                  (i64.popcnt (i64x2.extract_lane 1 (local.get $m))))
                (i64.add
                  (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                    (v128.or (v128.xor (local.get $e2) (local.get $q2)) (v128.xor (local.get $e3) (local.get $q3))))))
                  (i64.popcnt (i64x2.extract_lane 1 (local.get $m)))))))
          (local.set $best
            (select (local.get $d) (local.get $best) (i32.lt_u (local.get $d) (local.get $best))))
          (local.set $d
            (i32.wrap_i64
              (i64.add
                (i64.add
                  (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                    (v128.or (v128.xor (local.get $f0) (local.get $q0)) (v128.xor (local.get $f1) (local.get $q1))))))
                  (i64.popcnt (i64x2.extract_lane 1 (local.get $m))))
                (i64.add
                  (i64.popcnt (i64x2.extract_lane 0 (local.tee $m
                    (v128.or (v128.xor (local.get $f2) (local.get $q2)) (v128.xor (local.get $f3) (local.get $q3))))))
                  (i64.popcnt (i64x2.extract_lane 1 (local.get $m)))))))
          (local.set $best2
            (select (local.get $d) (local.get $best2) (i32.lt_u (local.get $d) (local.get $best2))))
          (local.set $p (i32.add (local.get $p) (local.get $pb)))
          (br_if $alignment2 (i32.lt_u (local.get $p) (local.get $end))))
        (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (local.get $best))
        (i32.store16 offset=2 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (local.get $best2))
        (local.set $d (i32.add (local.get $hist) (i32.shl (local.get $best) (i32.const 2))))
        (i32.store (local.get $d) (i32.add (i32.load (local.get $d)) (i32.const 1)))
        (local.set $d (i32.add (local.get $hist) (i32.shl (local.get $best2) (i32.const 2))))
        (i32.store (local.get $d) (i32.add (i32.load (local.get $d)) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br_if $pair (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $to)))))
    (if (i32.ge_u (local.get $i) (local.get $to)) (then (return)))
    ;; The last entry of an odd count.
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
      (local.set $d (i32.add (local.get $hist) (i32.shl (local.get $best) (i32.const 2))))
      (i32.store (local.get $d) (i32.add (i32.load (local.get $d)) (i32.const 1)))
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

  ;; Loads a word of the head and of the tail of each survivor in pairs [$a, $b) of out, so that their cache
  ;; lines are on their way before $full reads them; returns the words' XOR (the caller stores it, so that the
  ;; loads stay). A load whose value is used is the only prefetch WebAssembly has: one in front of each $full
  ;; did not help (it holds up the reorder buffer, so one miss at a time), a batch of them in a loop of their
  ;; own has all of them in flight at once.
  (func $touch (param $out i32) (param $a i32) (param $b i32) (param $heads i32) (param $tails i32)
    (param $hb i32) (param $tb i32) (result i32)
    (local $x i32) (local $slot i32)
    (block $done
      (br_if $done (i32.ge_u (local.get $a) (local.get $b)))
      (loop $next
        (local.set $slot (i32.load (i32.add (local.get $out) (i32.shl (local.get $a) (i32.const 3)))))
        (local.set $x (i32.xor (local.get $x) (i32.xor
          (i32.load (i32.add (local.get $heads) (i32.mul (local.get $slot) (local.get $hb))))
          (i32.load (i32.add (local.get $tails) (i32.mul (local.get $slot) (local.get $tb)))))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $a) (local.get $b)))))
    (local.get $x))

  ;; One block [from, to) of the cascade: head distances into scores[i] (u16) and their histogram into
  ;; hist (u32 per distance 0 .. 4 × $hb); the cut, the smallest distance with at least $keep heads at or below
  ;; it; then the $keep entries with the smallest heads (those below the cut, and the first in slot order at
  ;; it), in slot order, each as the pair (slot, whole coarse distance) of two u32 into out. Returns the number
  ;; of pairs, min($keep, to − from): a block that keeps all its entries skips the heads.
  ;;
  ;; The survivors' slots are collected first and their whole distances computed after, in batches of 32
  ;; whose head and tail lines are touched one batch ahead ($touch). Measured at 10^6 entries on one thread
  ;; (31,744 survivors): the whole distances took 6.7 ms when each $full followed its slot's test in one loop
  ;; (each survivor's tail a cache miss waited for alone), 2.3 ms so, the touches included (batches of 8:
  ;; +0.8 ms, 16: +0.1, 64: −0.1); the collecting loop takes 0.8 ms (eight heads at a time, groups with none
  ;; at the cut passed over by one vector comparison: no faster).
  (func (export "cascade")
    (param $heads i32) (param $tails i32) (param $hb i32) (param $tb i32) (param $probe i32)
    (param $alignments i32) (param $scores i32) (param $hist i32) (param $out i32) (param $from i32)
    (param $to i32) (param $keep i32) (result i32)
    (local $i i32) (local $h i32) (local $cut i32) (local $total i32) (local $n i32) (local $bins i32)
    (local $room i32) (local $o i32) (local $end i32) (local $k i32) (local $sink i32)
    (if (i32.or (i32.ge_u (local.get $from) (local.get $to))
          (i32.or (i32.eqz (local.get $alignments)) (i32.eqz (local.get $keep))))
      (then (return (i32.const 0))))
    (if (i32.ge_u (local.get $keep) (i32.sub (local.get $to) (local.get $from)))
      (then
        ;; Every entry survives: their whole distances, in slot order.
        (local.set $i (local.get $from))
        (loop $all
          (i32.store (local.get $out) (local.get $i))
          (i32.store offset=4 (local.get $out)
            (call $full (local.get $heads) (local.get $tails) (local.get $hb) (local.get $tb) (local.get $probe)
              (local.get $alignments) (local.get $i)))
          (local.set $out (i32.add (local.get $out) (i32.const 8)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $all (i32.lt_u (local.get $i) (local.get $to))))
        (return (i32.sub (local.get $to) (local.get $from)))))
    (local.set $bins (i32.add (i32.shl (local.get $hb) (i32.const 2)) (i32.const 1)))
    (memory.fill (local.get $hist) (i32.const 0) (i32.shl (local.get $bins) (i32.const 2)))
    (call $heads (local.get $heads) (local.get $hb) (local.get $probe) (i32.add (local.get $hb) (local.get $tb))
      (local.get $alignments) (local.get $scores) (local.get $hist) (local.get $from) (local.get $to))
    ;; The histogram holds to − from > keep heads, so the cut is found by the last bin.
    (local.set $cut (i32.const 0))
    (local.set $total (i32.load (local.get $hist)))
    (block $found
      (loop $scan
        (br_if $found (i32.ge_u (local.get $total) (local.get $keep)))
        (local.set $cut (i32.add (local.get $cut) (i32.const 1)))
        (local.set $total (i32.add (local.get $total)
          (i32.load (i32.add (local.get $hist) (i32.shl (local.get $cut) (i32.const 2))))))
        (br_if $scan (i32.lt_u (local.get $cut) (local.get $bins)))))
    ;; Room at the cut: $keep less the heads below it (at least 1).
    (local.set $room (i32.sub (local.get $keep)
      (i32.sub (local.get $total) (i32.load (i32.add (local.get $hist) (i32.shl (local.get $cut) (i32.const 2)))))))
    ;; The survivors' slots into out: every slot is written at the next free pair, which moves on only if the
    ;; slot is kept. While there is room at the cut, heads at or below it are kept; then those below it, until
    ;; $keep are found (so no write goes past the block's $keep pairs).
    (local.set $o (local.get $out))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $keep) (i32.const 3))))
    (local.set $i (local.get $from))
    (block $collected
      (loop $atcut
        (local.set $h (i32.load16_u (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 1)))))
        (i32.store (local.get $o) (local.get $i))
        (local.set $o (i32.add (local.get $o) (i32.shl (i32.le_u (local.get $h) (local.get $cut)) (i32.const 3))))
        (local.set $room (i32.sub (local.get $room) (i32.eq (local.get $h) (local.get $cut))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $collected (i32.ge_u (local.get $i) (local.get $to)))
        (br_if $atcut (i32.gt_s (local.get $room) (i32.const 0))))
      (loop $below
        (br_if $collected (i32.ge_u (local.get $o) (local.get $end)))
        (local.set $h (i32.load16_u (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 1)))))
        (i32.store (local.get $o) (local.get $i))
        (local.set $o (i32.add (local.get $o) (i32.shl (i32.lt_u (local.get $h) (local.get $cut)) (i32.const 3))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $below (i32.lt_u (local.get $i) (local.get $to)))))
    (local.set $n (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 3)))
    ;; Their whole distances, each batch of 32 touched while the one before it is computed.
    (local.set $sink (call $touch (local.get $out) (i32.const 0)
      (select (i32.const 32) (local.get $n) (i32.lt_u (i32.const 32) (local.get $n)))
      (local.get $heads) (local.get $tails) (local.get $hb) (local.get $tb)))
    (local.set $k (i32.const 0))
    (loop $survivor
      (if (i32.eqz (i32.and (local.get $k) (i32.const 31)))
        (then
          (local.set $h (i32.add (local.get $k) (i32.const 64)))
          (local.set $sink (i32.xor (local.get $sink) (call $touch (local.get $out)
            (i32.add (local.get $k) (i32.const 32))
            (select (local.get $h) (local.get $n) (i32.lt_u (local.get $h) (local.get $n)))
            (local.get $heads) (local.get $tails) (local.get $hb) (local.get $tb))))))
      (local.set $h (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))))
      (i32.store offset=4 (local.get $h)
        (call $full (local.get $heads) (local.get $tails) (local.get $hb) (local.get $tb) (local.get $probe)
          (local.get $alignments) (i32.load (local.get $h))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $survivor (i32.lt_u (local.get $k) (local.get $n))))
    ;; The histogram is no longer needed: its first bin takes the touched words.
    (i32.store (local.get $hist) (local.get $sink))
    (local.get $n))
)
