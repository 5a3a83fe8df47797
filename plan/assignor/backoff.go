package assignor

// revokingBackoff is Kafka's ExponentialBackoff(initial 1 (0 if max is 0),
// multiplier 40, max = scheduled.rebalance.max.delay.ms, jitter 0) evaluated
// for the k-th consecutive revoking round (assignor.md §3.2), truncated to
// int like the assignor's (int) cast.
func revokingBackoff(k int64, maxDelay int64) int64 {
	initial := int64(1)
	if maxDelay == 0 {
		initial = 0
	}
	if maxDelay < initial {
		initial = maxDelay
	}
	var expMax float64
	if maxDelay > initial {
		div := initial
		if div < 1 {
			div = 1
		}
		expMax = fdlibmLog(float64(maxDelay)/float64(div)) / fdlibmLog(40)
	}
	if expMax == 0 {
		return int64(int32(initial))
	}
	exp := float64(k)
	if expMax < exp {
		exp = expMax
	}
	term := float64(initial) * fdlibmPow(40, exp)
	v := javaDoubleToLong(term)
	if v > maxDelay {
		v = maxDelay
	}
	return int64(int32(v))
}

// javaDoubleToLong is Java's (long) cast: truncation, saturating, NaN -> 0.
func javaDoubleToLong(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= 9.223372036854775807e18:
		return 1<<63 - 1
	case f <= -9.223372036854775808e18:
		return -1 << 63
	}
	return int64(f)
}
