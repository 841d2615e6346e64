//! CRD types of `apps.kruise.io`.
