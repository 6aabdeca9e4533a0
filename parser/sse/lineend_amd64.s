#include "textflag.h"

// func indexLineEnd(b []byte) int
//
// The index of the first LF or CR of b, or -1: 32 bytes a step with AVX2,
// both bytes compared in the same step (callers check hasAVX2 first), the
// bytes after the last whole step one at a time.
TEXT ·indexLineEnd(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVQ SI, DI
	LEAQ (SI)(BX*1), R8
	CMPQ BX, $32
	JB   tail
	MOVL $0x0a, AX
	MOVD AX, X0
	VPBROADCASTB X0, Y0
	MOVL $0x0d, AX
	MOVD AX, X1
	VPBROADCASTB X1, Y1
	LEAQ -32(R8), R9

loop:
	VMOVDQU   (DI), Y2
	VPCMPEQB  Y0, Y2, Y3
	VPCMPEQB  Y1, Y2, Y4
	VPOR      Y3, Y4, Y3
	VPMOVMSKB Y3, AX
	TESTL     AX, AX
	JNZ       found
	ADDQ      $32, DI
	CMPQ      DI, R9
	JBE       loop
	VZEROUPPER

tail:
	CMPQ    DI, R8
	JAE     none
	MOVBLZX (DI), AX
	CMPB    AX, $0x0a
	JEQ     foundbyte
	CMPB    AX, $0x0d
	JEQ     foundbyte
	INCQ    DI
	JMP     tail

foundbyte:
	SUBQ SI, DI
	MOVQ DI, ret+24(FP)
	RET

found:
	VZEROUPPER
	BSFL AX, AX
	SUBQ SI, DI
	ADDQ AX, DI
	MOVQ DI, ret+24(FP)
	RET

none:
	MOVQ $-1, ret+24(FP)
	RET

// func cpuHasAVX2() bool
//
// CPUID: leaf 7 exists and says AVX2, leaf 1 says AVX and OSXSAVE, and the
// operating system saves the YMM registers (XCR0 bits 1 and 2).
TEXT ·cpuHasAVX2(SB), NOSPLIT, $0-1
	XORL  AX, AX
	XORL  CX, CX
	CPUID
	CMPL  AX, $7
	JB    no
	MOVL  $1, AX
	XORL  CX, CX
	CPUID
	ANDL  $0x18000000, CX
	CMPL  CX, $0x18000000
	JNE   no
	XORL  CX, CX
	XGETBV
	ANDL  $6, AX
	CMPL  AX, $6
	JNE   no
	MOVL  $7, AX
	XORL  CX, CX
	CPUID
	ANDL  $0x20, BX
	JZ    no
	MOVB  $1, ret+0(FP)
	RET

no:
	MOVB $0, ret+0(FP)
	RET
