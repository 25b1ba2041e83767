"""The devices the Braket stand-in knows: simulators online, a QPU offline, a retired QPU.

Each entry is the GetDevice shape minus deviceCapabilities/deviceQueueInfo, which
service.py fills in. default_devices() returns fresh copies, so tests may change a
device's status through the control API and /_standin/reset restores these.
"""

import copy
import json

_DEVICES = [
    {"deviceArn": "arn:aws:braket:::device/quantum-simulator/amazon/sv1", "deviceName": "SV1",
     "providerName": "Amazon Braket", "deviceType": "SIMULATOR", "deviceStatus": "ONLINE", "qubits": 34},
    {"deviceArn": "arn:aws:braket:::device/quantum-simulator/amazon/dm1", "deviceName": "dm1",
     "providerName": "Amazon Braket", "deviceType": "SIMULATOR", "deviceStatus": "ONLINE", "qubits": 17},
    {"deviceArn": "arn:aws:braket:::device/quantum-simulator/amazon/tn1", "deviceName": "TN1",
     "providerName": "Amazon Braket", "deviceType": "SIMULATOR", "deviceStatus": "ONLINE", "qubits": 50},
    {"deviceArn": "arn:aws:braket:us-east-1::device/qpu/ionq/Aria-1", "deviceName": "Aria 1",
     "providerName": "IonQ", "deviceType": "QPU", "deviceStatus": "OFFLINE", "qubits": 25},
    {"deviceArn": "arn:aws:braket:us-east-1::device/qpu/ionq/Harmony", "deviceName": "Harmony",
     "providerName": "IonQ", "deviceType": "QPU", "deviceStatus": "RETIRED", "qubits": 11},
]


def default_devices():
    return {d["deviceArn"]: copy.deepcopy(d) for d in _DEVICES}


def capabilities_json(device):
    kind = "simulators.gate_model_simulator" if device["deviceType"] == "SIMULATOR" else "ionq.ionq"
    doc = {
        "braketSchemaHeader": {"name": "braket.device_schema.%s_device_capabilities" % kind, "version": "1"},
        "service": {
            "braketSchemaHeader": {"name": "braket.device_schema.device_service_properties", "version": "1"},
            "executionWindows": [{"executionDay": "Everyday", "windowStartHour": "00:00:00",
                                  "windowEndHour": "23:59:59"}],
            "shotsRange": [0, 100000],
        },
        "action": {"braket.ir.openqasm.program": {"actionType": "braket.ir.openqasm.program", "version": ["1"]}},
        "paradigm": {"qubitCount": device["qubits"]},
        "deviceParameters": {},
    }
    return json.dumps(doc, separators=(",", ":"))


def summary(device):
    return {k: device[k] for k in ("deviceArn", "deviceName", "providerName", "deviceType", "deviceStatus")}
