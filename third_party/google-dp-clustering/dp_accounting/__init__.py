# Copyright 2020 Google LLC.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""DP Accounting package."""

from dp_accounting import dp_event
from dp_accounting import dp_event_builder
from dp_accounting import mechanism_calibration
from dp_accounting import pld
from dp_accounting import privacy_accountant
from dp_accounting import rdp
from dp_accounting.dp_event import ComposedDpEvent
from dp_accounting.dp_event import DiscreteGaussianDpEvent
from dp_accounting.dp_event import DpEvent
from dp_accounting.dp_event import ExponentialMechanismDpEvent
from dp_accounting.dp_event import GaussianDpEvent
from dp_accounting.dp_event import LaplaceDpEvent
from dp_accounting.dp_event import NonPrivateDpEvent
from dp_accounting.dp_event import NoOpDpEvent
from dp_accounting.dp_event import PermuteAndFlipDpEvent
from dp_accounting.dp_event import PoissonSampledDpEvent
from dp_accounting.dp_event import RandomizedResponseDpEvent
from dp_accounting.dp_event import SampledWithoutReplacementDpEvent
from dp_accounting.dp_event import SampledWithReplacementDpEvent
from dp_accounting.dp_event import SelfComposedDpEvent
from dp_accounting.dp_event import SingleEpochTreeAggregationDpEvent
from dp_accounting.dp_event import TruncatedSubsampledGaussianDpEvent
from dp_accounting.dp_event import UnsupportedDpEvent
from dp_accounting.dp_event import ZCDpEvent
from dp_accounting.dp_event_builder import DpEventBuilder
from dp_accounting.gaussian_mechanism import get_epsilon_gaussian
from dp_accounting.gaussian_mechanism import get_sigma_gaussian
from dp_accounting.mechanism_calibration import calibrate_dp_mechanism
from dp_accounting.mechanism_calibration import ExplicitBracketInterval
from dp_accounting.mechanism_calibration import LowerEndpointAndGuess
from dp_accounting.privacy_accountant import NeighboringRelation
from dp_accounting.privacy_accountant import PrivacyAccountant
from dp_accounting.privacy_accountant import UnsupportedEventError
