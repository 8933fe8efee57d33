;; Stage 1 of the palm 1:N search (packages/palm/src/wasm-search.ts): for every entry in [from, to), the
;; smallest number of differing 2-bit symbols between its coarse template and any of the probe's coarse
;; alignments, as a u16 into out[i].
;;
;; Layout (both the entries and the probe's alignments): 128 bytes per template of 512 two-bit symbols, as
;; four chunks of 32 bytes. A chunk holds a low-bit plane P and a high-bit plane Q of 16 bytes each, made
;; from pairs of template words (w0, w1):
;;   P = (w0 & 0x55555555) | ((w1 & 0x55555555) << 1),  Q = ((w0 >>> 1) & 0x55555555) | (w1 & 0xaaaaaaaa)
;; so every bit position of (P, Q) is one symbol, and a symbol differs iff its bit differs in P or in Q:
;;   mismatches = popcount((Pa ^ Pb) | (Qa ^ Qb)), exactly the count of the word-wise JS code.
;; An entry's eight vectors stay in locals while all alignments run over it. Per alignment and chunk, one
;; vector XOR/OR gives the differing symbols, and their count is two scalar i64.popcnt (one instruction
;; each on x64) of its halves. Measured on this machine's x64 and Node 20's V8, that beat i8x16.popcnt
;; with widening horizontal sums by about a third (V8 builds i8x16.popcnt from nibble table lookups).
;;
;; Rebuild the committed bytes with `npm run build:wasm -w @hasta/palm`.
(module
  (import "env" "memory" (memory 1 65536 shared))
  (func (export "scan")
    (param $entries i32) (param $probe i32) (param $alignments i32) (param $out i32)
    (param $from i32) (param $to i32)
    (local $i i32) (local $e i32) (local $p i32) (local $end i32) (local $best i32) (local $d i32)
    (local $m v128) (local $e0 v128) (local $e1 v128) (local $e2 v128) (local $e3 v128) (local $e4 v128) (local $e5 v128) (local $e6 v128) (local $e7 v128)
    (local.set $end (i32.add (local.get $probe) (i32.shl (local.get $alignments) (i32.const 7))))
    (local.set $i (local.get $from))
    (block $done
      (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
      (br_if $done (i32.eqz (local.get $alignments)))
      (loop $entry
        (local.set $e (i32.add (local.get $entries) (i32.shl (local.get $i) (i32.const 7))))
        (local.set $e0 (v128.load offset=0 (local.get $e)))
        (local.set $e1 (v128.load offset=16 (local.get $e)))
        (local.set $e2 (v128.load offset=32 (local.get $e)))
        (local.set $e3 (v128.load offset=48 (local.get $e)))
        (local.set $e4 (v128.load offset=64 (local.get $e)))
        (local.set $e5 (v128.load offset=80 (local.get $e)))
        (local.set $e6 (v128.load offset=96 (local.get $e)))
        (local.set $e7 (v128.load offset=112 (local.get $e)))
        (local.set $best (i32.const 0xffff))
        (local.set $p (local.get $probe))
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
        (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (local.get $best))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $entry (i32.lt_u (local.get $i) (local.get $to))))))
)
