#include "textflag.h"

// func prefetchRow(p *uint16, n int)
// Issues PREFETCHT0 for every 64-byte line of the n uint16 at p.
TEXT ·prefetchRow(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	SHLQ $1, CX
loop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	SUBQ $64, CX
	JG   loop
	RET
