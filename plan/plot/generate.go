package plot

// The README's pictures of the classic case, drawn by this package.
//go:generate go run ./internal/genimages -out ../../docs/img
