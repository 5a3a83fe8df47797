package assignor

import "math"

// Java's Math.log/Math.pow results decide the capped backoff delay
// (assignor.md §3.2: for a 1000 ms maximum Java yields 999, Go's math 1000).
// These are ports of fdlibm's __ieee754_log and __ieee754_pow (what
// StrictMath uses), restricted to the arguments the backoff needs.

func hiWord(x float64) int32  { return int32(math.Float64bits(x) >> 32) }
func loWord(x float64) uint32 { return uint32(math.Float64bits(x)) }
func withHi(x float64, hi int32) float64 {
	return math.Float64frombits(uint64(uint32(hi))<<32 | uint64(loWord(x)))
}
func withLo(x float64, lo uint32) float64 {
	return math.Float64frombits(math.Float64bits(x)&^0xffffffff | uint64(lo))
}

// fdlibmLog is __ieee754_log.
func fdlibmLog(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		two54 = 1.80143985094819840000e+16
		lg1   = 6.666666666666735130e-01
		lg2   = 3.999999999940941908e-01
		lg3   = 2.857142874366239149e-01
		lg4   = 2.222219843214978396e-01
		lg5   = 1.818357216161805012e-01
		lg6   = 1.531383769920937332e-01
		lg7   = 1.479819860511658591e-01
	)
	hx := hiWord(x)
	lx := loWord(x)
	k := int32(0)
	if hx < 0x00100000 {
		if (hx&0x7fffffff)|int32(lx) == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x *= two54
		hx = hiWord(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += (hx >> 20) - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	x = withHi(x, hx|(i^0x3ff00000))
	k += i >> 20
	f := x - 1.0
	if (0x000fffff & (2 + hx)) < 3 {
		if f == 0 {
			if k == 0 {
				return 0
			}
			dk := float64(k)
			return dk*ln2Hi + dk*ln2Lo
		}
		r := f * f * (0.5 - 0.33333333333333333*f)
		if k == 0 {
			return f - r
		}
		dk := float64(k)
		return dk*ln2Hi - ((r - dk*ln2Lo) - f)
	}
	s := f / (2.0 + f)
	dk := float64(k)
	z := s * s
	i = hx - 0x6147a
	w := z * z
	j := 0x6b851 - hx
	t1 := w * (lg2 + w*(lg4+w*lg6))
	t2 := z * (lg1 + w*(lg3+w*(lg5+w*lg7)))
	i |= j
	r := t2 + t1
	if i > 0 {
		hfsq := 0.5 * f * f
		if k == 0 {
			return f - (hfsq - s*(hfsq+r))
		}
		return dk*ln2Hi - ((hfsq - (s*(hfsq+r) + dk*ln2Lo)) - f)
	}
	if k == 0 {
		return f - s*(f-r)
	}
	return dk*ln2Hi - ((s*(f-r) - dk*ln2Lo) - f)
}

// fdlibmPow is __ieee754_pow for finite x > 0 and finite |y| < 2^31 whose
// result neither overflows nor underflows; anything else goes to math.Pow.
func fdlibmPow(x, y float64) float64 {
	const (
		two53  = 9007199254740992.0
		l1     = 5.99999999999994648725e-01
		l2     = 4.28571428578550184252e-01
		l3     = 3.33333329818377432918e-01
		l4     = 2.72728123808534006489e-01
		l5     = 2.30660745775561754067e-01
		l6     = 2.06975017800338417784e-01
		p1     = 1.66666666666666019037e-01
		p2     = -2.77777777770155933842e-03
		p3     = 6.61375632143793436117e-05
		p4     = -1.65339022054652515390e-06
		p5     = 4.13813679705723846039e-08
		lg2    = 6.93147180559945286227e-01
		lg2H   = 6.93147182464599609375e-01
		lg2L   = -1.90465429995776804525e-09
		cp     = 9.61796693925975554329e-01
		cpH    = 9.61796700954437255859e-01
		cpL    = -7.02846165095275826516e-09
		dpH1   = 5.84962487220764160156e-01
		dpL1   = 1.35003920212974897128e-08
		bpOne  = 1.0
		bpHalf = 1.5
	)
	if !(x > 0) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
		return math.Pow(x, y)
	}
	hy := hiWord(y)
	ly := loWord(y)
	iy := hy & 0x7fffffff
	if iy|int32(ly) == 0 {
		return 1
	}
	if iy > 0x41e00000 {
		return math.Pow(x, y)
	}
	if ly == 0 {
		if iy == 0x3ff00000 { // y is +-1
			if hy < 0 {
				return 1 / x
			}
			return x
		}
		if hy == 0x40000000 { // y is 2
			return x * x
		}
		if hy == 0x3fe00000 { // y is 0.5
			return math.Sqrt(x)
		}
	}
	ax := x
	ix := hiWord(ax) & 0x7fffffff
	if ax == 1 {
		return 1
	}
	n := int32(0)
	if ix < 0x00100000 {
		ax *= two53
		n -= 53
		ix = hiWord(ax)
	}
	n += (ix >> 20) - 0x3ff
	j := ix & 0x000fffff
	ix = j | 0x3ff00000
	k := int32(0)
	switch {
	case j <= 0x3988E:
		k = 0
	case j < 0xBB67A:
		k = 1
	default:
		k = 0
		n++
		ix -= 0x00100000
	}
	ax = withHi(ax, ix)
	bp, dpH, dpL := bpOne, 0.0, 0.0
	if k == 1 {
		bp, dpH, dpL = bpHalf, dpH1, dpL1
	}
	u := ax - bp
	v := 1.0 / (ax + bp)
	ss := u * v
	sH := withLo(ss, 0)
	tH := math.Float64frombits(uint64(uint32(((ix>>1)|0x20000000)+0x00080000+(k<<18))) << 32)
	tL := ax - (tH - bp)
	sL := v * ((u - sH*tH) - sH*tL)
	s2 := ss * ss
	r := s2 * s2 * (l1 + s2*(l2+s2*(l3+s2*(l4+s2*(l5+s2*l6)))))
	r += sL * (sH + ss)
	s2 = sH * sH
	tH = withLo(3.0+s2+r, 0)
	tL = r - ((tH - 3.0) - s2)
	u = sH * tH
	v = sL*tH + tL*ss
	pH := withLo(u+v, 0)
	pL := v - (pH - u)
	zH := cpH * pH
	zL := cpL*pH + pL*cp + dpL
	t := float64(n)
	t1 := withLo(((zH+zL)+dpH)+t, 0)
	t2 := zL - (((t1 - t) - dpH) - zH)

	y1 := withLo(y, 0)
	pL = (y-y1)*t1 + y*t2
	pH = y1 * t1
	z := pL + pH
	jz := hiWord(z)
	if jz >= 0x40900000 || (jz&0x7fffffff) >= 0x4090cc00 {
		return math.Pow(x, y) // overflow/underflow: not needed by the backoff
	}
	i := jz & 0x7fffffff
	k = (i >> 20) - 0x3ff
	n = 0
	if i > 0x3fe00000 {
		n = jz + (0x00100000 >> (k + 1))
		k = ((n & 0x7fffffff) >> 20) - 0x3ff
		t = math.Float64frombits(uint64(uint32(n&^(0x000fffff>>k))) << 32)
		n = ((n & 0x000fffff) | 0x00100000) >> (20 - k)
		if jz < 0 {
			n = -n
		}
		pH -= t
	}
	t = withLo(pL+pH, 0)
	u = t * lg2H
	v = (pL-(t-pH))*lg2 + t*lg2L
	z = u + v
	w := v - (z - u)
	t = z * z
	t1 = z - t*(p1+t*(p2+t*(p3+t*(p4+t*p5))))
	r = (z*t1)/(t1-2.0) - (w + z*w)
	z = 1.0 - (r - z)
	jj := hiWord(z) + (n << 20)
	if (jj >> 20) <= 0 {
		return math.Ldexp(z, int(n))
	}
	return withHi(z, jj)
}
