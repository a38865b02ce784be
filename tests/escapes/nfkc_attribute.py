# fronts.escape: nfkc_attribute
# gate-free: escapes
# gate: private-attribute
# An attribute spelled with NFKC look-alikes of "_" that Python normalises
# to __globals__.

dataclass._︳globals︳_["sys"].modules["os"].open("/tmp/fronts-escape-nfkc_attribute", 65)
