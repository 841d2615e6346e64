//go:build tools

// Package tools keeps kruise-manager's packages (and so its whole module graph) in this
// module's go.mod and go.sum; build.sh builds its main package, the module root.
package tools

import (
	_ "github.com/openkruise/kruise/pkg/controller"
	_ "github.com/openkruise/kruise/pkg/webhook"
)
