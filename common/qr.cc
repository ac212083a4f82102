#include "common/qr.h"

#include <qrencode.h>

#include <memory>
#include <string>

namespace balcao {

StatusOr<QrMatrix> EncodeQr(std::string_view data, QrLevel level) {
  if (data.empty()) return InvalidArgumentError("qr: data is empty");
  static constexpr QRecLevel kLevels[] = {QR_ECLEVEL_L, QR_ECLEVEL_M, QR_ECLEVEL_Q, QR_ECLEVEL_H};
  std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
      QRcode_encodeData(static_cast<int>(data.size()), reinterpret_cast<const unsigned char*>(data.data()), 0,
                        kLevels[static_cast<int>(level)]),
      &QRcode_free);
  if (!code) {
    return InvalidArgumentError("qr: data of " + std::to_string(data.size()) +
                                " bytes does not fit a QR code at this error-correction level");
  }
  QrMatrix m;
  m.size = code->width;
  m.modules.resize(static_cast<std::size_t>(m.size) * m.size);
  for (std::size_t i = 0; i < m.modules.size(); ++i) m.modules[i] = code->data[i] & 1;
  return m;
}

}  // namespace balcao
