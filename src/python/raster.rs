//! SVG pictures as pixels for Python: `svg_to_rgb(svg, scale=1.0)`, a NumPy uint8 array of
//! shape (height, width, 3) drawn by [`crate::common::raster`] with the interpreter released
//! (the environments' `render_mode="rgb_array"` frames).

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use super::convert::{InvalidArgumentError, repr};
use super::errors::LudoError;
use super::type_error;
use crate::common::ranges::not_positive;
use crate::common::raster::{self, RasterError};

pyo3::create_exception!(
    LudoGame,
    InvalidSvgError,
    LudoError,
    "Text that is not an SVG picture that can be drawn (bad XML, no <svg> root, no size)."
);

/// A `scale` argument: an `int` or a `float` (not a `bool`), finite and above 0.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale(f32);

impl<'a, 'py> FromPyObject<'a, 'py> for Scale {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyBool>()
            || !(obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>())
        {
            return Err(type_error("scale", "a number", &obj));
        }
        match obj.extract::<f64>() {
            // As an f32 (what the drawing takes): 1e-60 would be 0, 1e300 infinite.
            Ok(v) if (v as f32).is_finite() && (v as f32) > 0.0 => Ok(Scale(v as f32)),
            _ => Err(InvalidArgumentError::new_err(not_positive(
                "scale",
                &repr(&obj),
            ))),
        }
    }
}

impl From<RasterError> for PyErr {
    fn from(e: RasterError) -> PyErr {
        match e {
            RasterError::InvalidSvg(_) => InvalidSvgError::new_err(e.to_string()),
            RasterError::InvalidScale(_) | RasterError::InvalidSize { .. } => {
                InvalidArgumentError::new_err(e.to_string())
            }
        }
    }
}

/// The SVG picture `svg` (a str) drawn at `scale` times its size, as a NumPy uint8 array of
/// shape (height, width, 3): RGB, what the picture leaves transparent white. Raises
/// InvalidSvgError (a ValueError) for text that is not a drawable SVG, InvalidArgumentError
/// for a scale that is not above 0 or a picture too large (over 8192 pixels on a side),
/// TypeError for arguments of the wrong type.
#[pyfunction]
#[pyo3(signature = (svg, scale = Scale(1.0)), text_signature = "(svg, scale=1.0)")]
pub(crate) fn svg_to_rgb<'py>(
    py: Python<'py>,
    svg: &Bound<'py, PyAny>,
    scale: Scale,
) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let svg = svg
        .cast::<PyString>()
        .map_err(|_| type_error("svg", "a str", svg))?
        .to_str()?;
    crate::python::need_numpy(py, "svg_to_rgb needs")?;
    let img = py.detach(|| raster::svg_to_rgb(svg, scale.0))?;
    PyArray1::from_vec(py, img.pixels).reshape([img.height, img.width, 3])
}
