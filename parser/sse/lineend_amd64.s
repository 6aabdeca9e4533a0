//go:build !purego

#include "textflag.h"

// STEP32 compares the 32 bytes at addr with LF, CR (Y0, Y1) and NUL (Y5):
// AX gets the bits of their line ends, DX and Y6 their NULs.
#define STEP32(addr) \
	VMOVDQU   addr, Y2; \
	VPCMPEQB  Y0, Y2, Y3; \
	VPCMPEQB  Y1, Y2, Y4; \
	VPOR      Y3, Y4, Y3; \
	VPCMPEQB  Y5, Y2, Y6; \
	VPMOVMSKB Y3, AX; \
	VPMOVMSKB Y6, DX

// special holds, for VPSHUFB, the byte whose low four bits index it
// among NUL, LF and CR, and 0xFF for every other index (in both 128-bit
// lanes): a byte x is one of the three exactly when the table's byte at
// x's low four bits is x (a byte with its high bit set gets 0 from VPSHUFB,
// and is not 0; 0xFF is no byte below 0x80).
DATA special<>+0(SB)/8, $0xffffffffffffff00
DATA special<>+8(SB)/8, $0xffff0dffff0affff
DATA special<>+16(SB)/8, $0xffffffffffffff00
DATA special<>+24(SB)/8, $0xffff0dffff0affff
GLOBL special<>(SB), RODATA|NOPTR, $32

// func indexLineEnd(b []byte) (i int, nul bool)
//
// The index of the first LF or CR of b, or -1, and whether a NUL comes
// before it (in all of b when there is none), with AVX2 (callers check
// hasAVX2 first): 64 bytes a step, then 32, the three bytes compared in
// the same step. The 64-byte steps look for the three at once with one
// lookup (special) and one compare a 32-byte half, and tell them apart
// only in a step that holds one.
TEXT ·indexLineEnd(SB), NOSPLIT, $0-33
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVL $0x0a, AX
	MOVD AX, X0
	VPBROADCASTB X0, Y0
	MOVL $0x0d, AX
	MOVD AX, X1
	VPBROADCASTB X1, Y1
	VPXOR Y5, Y5, Y5
	VPXOR Y12, Y12, Y12
	VMOVDQU special<>(SB), Y13
	XORL R11, R11
	MOVQ SI, DI
	CMPQ BX, $32
	JB   small
	CMPQ BX, $64
	JB   tail
	LEAQ -64(SI)(BX*1), R9

	// 64 bytes a step: Y3 and Y7 get the NULs, LFs and CRs of each
	// half (special); a step with one of them goes to hit64.
	PCALIGN $32
loop64:
	VMOVDQU   (DI), Y2
	VMOVDQU   32(DI), Y6
	VPSHUFB   Y2, Y13, Y3
	VPSHUFB   Y6, Y13, Y7
	VPCMPEQB  Y2, Y3, Y3
	VPCMPEQB  Y6, Y7, Y7
	VPOR      Y3, Y7, Y9
	VPTEST    Y9, Y9
	JNZ       hit64
next64:
	ADDQ      $64, DI
	CMPQ      DI, R9
	JBE       loop64
	JMP       tail

hit64:
	// The 64 bytes at DI hold a NUL, an LF or a CR: Y10 and Y11 get
	// the NULs of each half, and Y3 and Y7 keep the line ends only. A
	// line end goes to found64; NULs alone are gathered in Y12, and
	// the search goes on.
	VPCMPEQB  Y5, Y2, Y10
	VPCMPEQB  Y5, Y6, Y11
	VPANDN    Y3, Y10, Y3
	VPANDN    Y7, Y11, Y7
	VPOR      Y3, Y7, Y9
	VPTEST    Y9, Y9
	JNZ       found64
	VPOR      Y10, Y11, Y10
	VPOR      Y10, Y12, Y12
	JMP       next64

tail:
	// Fewer than 64 bytes from DI: 32 a step, then a last step that
	// ends with b, over bytes that the steps before have seen too.
	LEAQ      -32(SI)(BX*1), R9

loop32:
	CMPQ      DI, R9
	JA        last
	STEP32((DI))
	TESTL     AX, AX
	JNZ       found
	VPOR      Y6, Y12, Y12
	ADDQ      $32, DI
	JMP       loop32

last:
	LEAQ      32(R9), R10
	CMPQ      DI, R10
	JAE       none
	MOVQ      R9, DI
	STEP32((DI))
	TESTL     AX, AX
	JNZ       found
	VPOR      Y6, Y12, Y12
	JMP       none

found64:
	// The line end is in the 64 bytes at DI: in their first half, or
	// in the second after the first half's NULs.
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y10, DX
	TESTL     AX, AX
	JNZ       found
	VPOR      Y10, Y12, Y12
	VPMOVMSKB Y7, AX
	VPMOVMSKB Y11, DX
	ADDQ      $32, DI
	JMP       found

small:
	// Fewer than 32 bytes: one load of the 32 bytes that start with b
	// when they stay within its page, else of the 32 that end with it
	// (within the page, as b starts past its 4064th byte), the bits of
	// the bytes outside b dropped.
	TESTQ     BX, BX
	JEQ       none
	MOVL      SI, AX
	ANDL      $4095, AX
	CMPL      AX, $4064
	JA        fromend
	STEP32((SI))
	MOVL      $1, R10
	MOVQ      BX, CX
	SHLL      CX, R10
	DECL      R10
	ANDL      R10, AX
	ANDL      R10, DX
	TESTL     AX, AX
	JNZ       found
	MOVL      DX, R11
	JMP       none

fromend:
	STEP32(-32(SI)(BX*1))
	MOVL      $32, CX
	SUBL      BX, CX
	SHRL      CX, AX
	SHRL      CX, DX
	TESTL     AX, AX
	JNZ       found
	MOVL      DX, R11
	JMP       none

found:
	// AX holds the line ends of the 32 bytes at DI, DX their NULs, Y12
	// the NULs before DI: the NULs before the first line end count.
	BSFL      AX, CX
	MOVL      $1, R10
	SHLL      CX, R10
	DECL      R10
	ANDL      R10, DX
	VPMOVMSKB Y12, R8
	ORL       R8, DX
	SUBQ      SI, DI
	ADDQ      CX, DI
	MOVQ      DI, i+24(FP)
	TESTL     DX, DX
	SETNE     nul+32(FP)
	VZEROUPPER
	RET

none:
	VPMOVMSKB Y12, R8
	ORL       R8, R11
	MOVQ      $-1, i+24(FP)
	TESTL     R11, R11
	SETNE     nul+32(FP)
	VZEROUPPER
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

// func prefetch(p []byte)
//
// PREFETCHT0 of every 64 bytes of p, from its first byte on.
TEXT ·prefetch(SB), NOSPLIT, $0-24
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), BX
	LEAQ (SI)(BX*1), DI

prefetchLoop:
	CMPQ       SI, DI
	JAE        prefetchDone
	PREFETCHT0 (SI)
	ADDQ       $64, SI
	JMP        prefetchLoop

prefetchDone:
	RET
