package source

import "testing"

// TestPlainRunFindsEveryStopByte puts each byte that ends a plain run at
// every position of a 20-byte string (so both the 8-byte and the byte-wise
// loops meet it), next to bytes just outside the stop set.
func TestPlainRunFindsEveryStopByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		for at := 0; at < 20; at++ {
			b := []byte("!#[]\x7f\xff\x20\x21abcdefghijkl")
			b[at] = byte(c)
			want := len(b)
			for i, x := range b {
				if x < 0x20 || x == '"' || x == '\\' {
					want = i
					break
				}
			}
			for from := 0; from <= at; from++ {
				if got := plainRun(b, from); got != want {
					t.Fatalf("byte %#x at %d, from %d: plainRun = %d, want %d", c, at, from, got, want)
				}
			}
		}
	}
}
