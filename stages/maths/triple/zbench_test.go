//go:build linux

package triple

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkDotPerm(b *testing.B) {
	var x, y [512]uint32
	for i := range x {
		x[i], y[i] = uint32(i*7919)%5000, uint32(i*104729)%7000
	}
	perm := make([]uint16, 346)
	for i, v := range rand.Perm(346) {
		perm[i] = uint16(v)
	}
	var s uint64
	for b.Loop() {
		s += dotPerm(&x, &y, perm)
	}
	_ = s
}

func BenchmarkDotGo(b *testing.B) {
	ev := make([]uint32, 8192)
	for i := range ev {
		ev[i] = uint32(i * 31)
	}
	var x, y [512]uint16
	for i := range x {
		x[i], y[i] = uint16(i*7919)%5000, uint16(i*104729)%5000
	}
	ia, ib := make([]int32, 346), make([]int32, 346)
	for i, v := range rand.Perm(346) {
		ia[i] = int32(v)
	}
	for i, v := range rand.Perm(346) {
		ib[i] = int32(v)
	}
	var s uint64
	for b.Loop() {
		s += dotGo(ev, x[:], y[:], ia, ib)
	}
	_ = s
}

func TestDotCPU(t *testing.T) {
	var x, y [512]uint32
	for i := range x {
		x[i], y[i] = uint32(i*7919)%5000, uint32(i*104729)%7000
	}
	perm := make([]uint16, 346)
	for i, v := range rand.Perm(346) {
		perm[i] = uint16(v)
	}
	var s uint64
	c0 := threadCPU()
	for range 200000 {
		s += dotPerm(&x, &y, perm)
	}
	d := threadCPU() - c0
	t.Logf("dotPerm: %.3f ns/term (CPU) %d", d.Seconds()/200000/346*1e9, s)
}
